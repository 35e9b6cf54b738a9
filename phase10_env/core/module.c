/* The thin binding of the native core: functions over a caller-owned uint8 array of slots
 * (shape (N, SLOT_BYTES)) and numpy arrays for indices, actions, observations and masks.
 * No Python object is made per game or per step; phase10_env/core/__init__.py wraps these in
 * a readable API and describes the slot's fields as a numpy dtype from layout(). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

#include "core.h"

/* ---------------------------------------------------------------- buffers */

typedef struct {
    Py_buffer view;
    int ok;
} Buf;

static int get_buffer(PyObject *obj, Buf *b, int writable, Py_ssize_t itemsize, const char *what) {
    b->ok = 0;
    if (PyObject_GetBuffer(obj, &b->view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous%s numpy array", what, writable ? " writable" : "");
        return -1;
    }
    b->ok = 1;
    if (itemsize && b->view.itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s must have items of %zd bytes, not %zd", what, itemsize, b->view.itemsize);
        return -1;
    }
    return 0;
}

static void release(Buf *b) {
    if (b->ok) PyBuffer_Release(&b->view);
    b->ok = 0;
}

static Slot *slot_at(Buf *slots, int64_t i) { return (Slot *)((char *)slots->view.buf + (size_t)i * sizeof(Slot)); }

static Py_ssize_t num_slots(Buf *slots) { return slots->view.len / (Py_ssize_t)sizeof(Slot); }

/* slots (N, SLOT_BYTES) uint8, indices int64 (M,): checks and counts. */
static int open_slots(PyObject *slots_obj, PyObject *idx_obj, Buf *slots, Buf *idx) {
    idx->ok = 0;
    if (get_buffer(slots_obj, slots, 1, 1, "slots") < 0) return -1;
    if (slots->view.len % (Py_ssize_t)sizeof(Slot)) {
        PyErr_Format(PyExc_ValueError, "slots must hold whole slots of %zu bytes", sizeof(Slot));
        return -1;
    }
    if (get_buffer(idx_obj, idx, 0, 8, "indices") < 0) return -1;
    Py_ssize_t n = num_slots(slots), m = idx->view.len / 8;
    const int64_t *ix = (const int64_t *)idx->view.buf;
    for (Py_ssize_t i = 0; i < m; i++)
        if (ix[i] < 0 || ix[i] >= n) {
            PyErr_Format(PyExc_IndexError, "slot index %lld out of range for %zd slots", (long long)ix[i], n);
            return -1;
        }
    return 0;
}

static int check_len(Buf *b, Py_ssize_t want, const char *what) {
    if (b->view.len != want) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd bytes, not %zd", what, want, b->view.len);
        return -1;
    }
    return 0;
}

/* The seat whose decision a self-play row is: the seat to act, or once the episode ended the
 * one that acted last (as the AEC env's agent_selection). */
static int seat_to_act(const Slot *s) { return s->terminated || s->truncated ? s->last_actor : s->g.current; }

/* ---------------------------------------------------------------- configure(slots, indices, num_players, rules, config) */

static int read_rules(PyObject *t, Rules *r) {
    /* (phases tuple, phases_to_win, advance_all, per_group, skip_rule) */
    PyObject *phases;
    int ptw, advance_all, per_group, skip_rule;
    if (!PyArg_ParseTuple(t, "Oiiii", &phases, &ptw, &advance_all, &per_group, &skip_rule)) return -1;
    PyObject *seq = PySequence_Fast(phases, "phases must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count < 1 || count > 10 || ptw < 1 || ptw > count || skip_rule < 0 || skip_rule > 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "rules out of range");
        return -1;
    }
    memset(r, 0, sizeof *r);
    for (Py_ssize_t i = 0; i < count; i++) {
        long p = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (p < 1 || p > 10) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "phase numbers are 1-10");
            return -1;
        }
        r->phases[i] = (uint8_t)p;
    }
    Py_DECREF(seq);
    r->num_phases = (uint8_t)count;
    r->phases_to_win = (uint8_t)ptw;
    r->advance_all = (uint8_t)advance_all;
    r->per_group = (uint8_t)per_group;
    r->skip_rule = (uint8_t)skip_rule;
    return 0;
}

static int read_config(PyObject *t, int num_players, EnvConfig *c) {
    /* (win, loss, phase_made, went_out, points, per_hand, episode_hand, random_start, learner_seat,
     *  shared_random, max_steps, controllers tuple by offset) */
    PyObject *controllers;
    int per_hand, episode_hand, random_start, learner_seat, shared_random, max_steps;
    memset(c, 0, sizeof *c);
    if (!PyArg_ParseTuple(t, "dddddiiiiiiO", &c->win, &c->loss, &c->phase_made, &c->went_out, &c->points, &per_hand,
                          &episode_hand, &random_start, &learner_seat, &shared_random, &max_steps, &controllers))
        return -1;
    PyObject *seq = PySequence_Fast(controllers, "controllers must be a sequence");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != num_players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one controller per seat offset");
        return -1;
    }
    for (int i = 0; i < num_players; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v < 0 || v > 3) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "controllers are 0-3");
            return -1;
        }
        c->controller[i] = (uint8_t)v;
    }
    Py_DECREF(seq);
    if (learner_seat < -1 || learner_seat >= num_players || max_steps < 0) {
        PyErr_SetString(PyExc_ValueError, "learner_seat or max_steps out of range");
        return -1;
    }
    c->per_hand = (uint8_t)per_hand;
    c->episode_hand = (uint8_t)episode_hand;
    c->random_start = (uint8_t)random_start;
    c->learner_seat = (int8_t)learner_seat;
    c->shared_random = (uint8_t)shared_random;
    c->max_steps = max_steps;
    return 0;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *rules_obj, *cfg_obj;
    int n;
    if (!PyArg_ParseTuple(args, "OOiOO", &slots_obj, &idx_obj, &n, &rules_obj, &cfg_obj)) return NULL;
    if (n < 2 || n > MAX_PLAYERS) return PyErr_Format(PyExc_ValueError, "num_players must be 2-6, not %d", n);
    Rules rules;
    EnvConfig cfg;
    if (read_rules(rules_obj, &rules) < 0 || read_config(cfg_obj, n, &cfg) < 0) return NULL;
    Buf slots, idx;
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    for (Py_ssize_t i = 0; i < idx.view.len / 8; i++) slot_configure(slot_at(&slots, ix[i]), n, &rules, &cfg);
    release(&slots);
    release(&idx);
    Py_RETURN_NONE;
fail:
    release(&slots);
    release(&idx);
    return NULL;
}

/* ---------------------------------------------------------------- reset(slots, indices, seeds uint64, has_seed uint8) */

static PyObject *py_reset(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seeds_obj, *has_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &slots_obj, &idx_obj, &seeds_obj, &has_obj)) return NULL;
    Buf slots, idx, seeds = {0}, has = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(seeds_obj, &seeds, 0, 8, "seeds") < 0 || check_len(&seeds, m * 8, "seeds") < 0) goto fail;
    if (get_buffer(has_obj, &has, 0, 1, "has_seed") < 0 || check_len(&has, m, "has_seed") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    const uint64_t *sd = (const uint64_t *)seeds.view.buf;
    const uint8_t *hs = (const uint8_t *)has.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) slot_reset(slot_at(&slots, ix[i]), hs[i], sd[i]);
    release(&slots), release(&idx), release(&seeds), release(&has);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&seeds), release(&has);
    return NULL;
}

/* ---------------------------------------------------------------- check(slots, indices, actions int64) -> None or (i, code) */

static PyObject *py_check(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *act_obj;
    if (!PyArg_ParseTuple(args, "OOO", &slots_obj, &idx_obj, &act_obj)) return NULL;
    Buf slots, idx, act = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(act_obj, &act, 0, 8, "actions") < 0 || check_len(&act, m * 8, "actions") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *a = (const int64_t *)act.view.buf;
    PyObject *result = Py_None;
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t action = a[i];
        int code = action < 0 || action >= NUM_ACTIONS ? (slot_at(&slots, ix[i])->terminated || slot_at(&slots, ix[i])->truncated ? 3 : 1)
                                                      : slot_check(slot_at(&slots, ix[i]), (int)action);
        if (code) {
            result = Py_BuildValue("(ni)", i, code);
            break;
        }
    }
    release(&slots), release(&idx), release(&act);
    if (result == Py_None) Py_RETURN_NONE;
    return result;
fail:
    release(&slots), release(&idx), release(&act);
    return NULL;
}

/* ---------------------------------------------------------------- act / advance / play(slots, indices, actions|None, status_out int8) */

static PyObject *run(PyObject *args, int mode) { /* mode 0: act; 1: advance; 2: act then advance */
    PyObject *slots_obj, *idx_obj, *act_obj, *status_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &slots_obj, &idx_obj, &act_obj, &status_obj)) return NULL;
    Buf slots, idx, act = {0}, status = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (mode != 1 && (get_buffer(act_obj, &act, 0, 8, "actions") < 0 || check_len(&act, m * 8, "actions") < 0)) goto fail;
    if (get_buffer(status_obj, &status, 1, 1, "status") < 0 || check_len(&status, m, "status") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *a = mode != 1 ? (const int64_t *)act.view.buf : NULL;
    int8_t *st = (int8_t *)status.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        Slot *s = slot_at(&slots, ix[i]);
        int r = 0;
        if (mode != 1) r = slot_act(s, (int)a[i]);
        if (mode != 0) r = slot_advance(s);
        st[i] = (int8_t)r;
    }
    release(&slots), release(&idx), release(&act), release(&status);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&act), release(&status);
    return NULL;
}

static PyObject *py_act(PyObject *self, PyObject *args) { return run(args, 0); }
static PyObject *py_advance(PyObject *self, PyObject *args) { return run(args, 1); }
static PyObject *py_step(PyObject *self, PyObject *args) { return run(args, 2); }

/* ---------------------------------------------------------------- observe(slots, indices, seats int64, obs float32 (M, L), masks uint8 (M, 350), planning) */

static PyObject *py_observe(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seats_obj, *obs_obj, *mask_obj;
    int planning;
    if (!PyArg_ParseTuple(args, "OOOOOp", &slots_obj, &idx_obj, &seats_obj, &obs_obj, &mask_obj, &planning)) return NULL;
    Buf slots, idx, seats = {0}, obs = {0}, mask = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8, width = OBS_SIZE + (planning ? PLANNING_SIZE : 0);
    if (get_buffer(seats_obj, &seats, 0, 8, "seats") < 0 || check_len(&seats, m * 8, "seats") < 0) goto fail;
    if (obs_obj != Py_None && (get_buffer(obs_obj, &obs, 1, 4, "observations") < 0 ||
                               check_len(&obs, m * width * 4, "observations") < 0))
        goto fail;
    if (mask_obj != Py_None && (get_buffer(mask_obj, &mask, 1, 1, "masks") < 0 || check_len(&mask, m * NUM_ACTIONS, "masks") < 0))
        goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *se = (const int64_t *)seats.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        Slot *s = slot_at(&slots, ix[i]);
        int seat = se[i] == -1 ? s->learner : se[i] == -2 ? seat_to_act(s) : (int)se[i];
        if (seat < 0 || seat >= s->g.num_players) {
            PyErr_Format(PyExc_ValueError, "no seat %d in a %d-player game", seat, s->g.num_players);
            goto fail;
        }
        if (obs.ok) {
            float *o = (float *)obs.view.buf + i * width;
            observe(&s->g, &s->p, seat, o);
            if (planning) planning_features(&s->g, seat, o + OBS_SIZE);
        }
        if (mask.ok) {
            uint8_t *mk = (uint8_t *)mask.view.buf + i * NUM_ACTIONS;
            if (s->terminated || s->truncated || seat != s->g.current)
                memset(mk, 0, NUM_ACTIONS);
            else
                legal_mask(&s->g, &s->p, mk);
        }
    }
    release(&slots), release(&idx), release(&seats), release(&obs), release(&mask);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&seats), release(&obs), release(&mask);
    return NULL;
}

/* ---------------------------------------------------------------- heuristic(slots, indices, out int64) */

static PyObject *py_heuristic(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &slots_obj, &idx_obj, &out_obj)) return NULL;
    Buf slots, idx, out = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(out_obj, &out, 1, 8, "out") < 0 || check_len(&out, m * 8, "out") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    int64_t *o = (int64_t *)out.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        Slot *s = slot_at(&slots, ix[i]);
        o[i] = s->g.stage == STAGE_GAME_OVER ? -1 : heuristic_action(&s->g, &s->p);
    }
    release(&slots), release(&idx), release(&out);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&out);
    return NULL;
}

/* ---------------------------------------------------------------- collect(slots, indices, selfplay, rewards, terminated, truncated, seats)
 * What each game's last step gave: rewards float64 (M,) (single: the learner's since it last
 * acted) or (M, num_players) (self-play: every seat's from the last action); terminated and
 * truncated bool (M,); seats int64 (M,) (single: the learner; self-play: the seat to act). */

static PyObject *py_collect(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *rew_obj, *term_obj, *trunc_obj, *seats_obj;
    int selfplay;
    if (!PyArg_ParseTuple(args, "OOpOOOO", &slots_obj, &idx_obj, &selfplay, &rew_obj, &term_obj, &trunc_obj, &seats_obj))
        return NULL;
    Buf slots, idx, rew = {0}, term = {0}, trunc = {0}, seats = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    int players = m ? slot_at(&slots, ix[0])->g.num_players : 0;
    if (get_buffer(rew_obj, &rew, 1, 8, "rewards") < 0 || check_len(&rew, m * 8 * (selfplay ? players : 1), "rewards") < 0 ||
        get_buffer(term_obj, &term, 1, 1, "terminated") < 0 || check_len(&term, m, "terminated") < 0 ||
        get_buffer(trunc_obj, &trunc, 1, 1, "truncated") < 0 || check_len(&trunc, m, "truncated") < 0 ||
        get_buffer(seats_obj, &seats, 1, 8, "seats") < 0 || check_len(&seats, m * 8, "seats") < 0)
        goto fail;
    double *r = (double *)rew.view.buf;
    uint8_t *te = (uint8_t *)term.view.buf, *tr = (uint8_t *)trunc.view.buf;
    int64_t *se = (int64_t *)seats.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const Slot *s = slot_at(&slots, ix[i]);
        if (selfplay) {
            for (int p = 0; p < players; p++) r[i * players + p] = s->step_rewards[p];
            se[i] = seat_to_act(s);
        } else {
            r[i] = s->cumulative[s->learner];
            se[i] = s->learner;
        }
        te[i] = s->terminated;
        tr[i] = s->truncated;
    }
    release(&slots), release(&idx), release(&rew), release(&term), release(&trunc), release(&seats);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&rew), release(&term), release(&trunc), release(&seats);
    return NULL;
}

/* ---------------------------------------------------------------- reset_games(slots, indices, aec_seeds uint64 (M,), dealers int64 (M,), agent_seeds uint64 (M, 6)) */

static PyObject *py_reset_games(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seeds_obj, *dealers_obj, *agents_obj;
    if (!PyArg_ParseTuple(args, "OOOOO", &slots_obj, &idx_obj, &seeds_obj, &dealers_obj, &agents_obj)) return NULL;
    Buf slots, idx, seeds = {0}, dealers = {0}, agents = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(seeds_obj, &seeds, 0, 8, "aec_seeds") < 0 || check_len(&seeds, m * 8, "aec_seeds") < 0 ||
        get_buffer(dealers_obj, &dealers, 0, 8, "dealers") < 0 || check_len(&dealers, m * 8, "dealers") < 0 ||
        get_buffer(agents_obj, &agents, 0, 8, "agent_seeds") < 0 || check_len(&agents, m * 8 * MAX_PLAYERS, "agent_seeds") < 0)
        goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *dl = (const int64_t *)dealers.view.buf;
    const uint64_t *sd = (const uint64_t *)seeds.view.buf, *ag = (const uint64_t *)agents.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        Slot *s = slot_at(&slots, ix[i]);
        if (dl[i] < 0 || dl[i] >= s->g.num_players) {
            PyErr_Format(PyExc_ValueError, "first dealer %lld is no seat of a %d-player game", (long long)dl[i], s->g.num_players);
            goto fail;
        }
        slot_reset_game(s, sd[i], (int)dl[i], ag + i * MAX_PLAYERS);
    }
    release(&slots), release(&idx), release(&seeds), release(&dealers), release(&agents);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&seeds), release(&dealers), release(&agents);
    return NULL;
}

/* ---------------------------------------------------------------- playout(slots, indices, until_hand, random_policy, seeds uint64 (M,)) */

static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seeds_obj;
    int until_hand, random_policy;
    if (!PyArg_ParseTuple(args, "OOppO", &slots_obj, &idx_obj, &until_hand, &random_policy, &seeds_obj)) return NULL;
    Buf slots, idx, seeds = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(seeds_obj, &seeds, 0, 8, "seeds") < 0 || check_len(&seeds, m * 8, "seeds") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    const uint64_t *sd = (const uint64_t *)seeds.view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < m; i++) {
        Pcg64 rng;
        pcg_seed(&rng, sd[i]);
        slot_playout(slot_at(&slots, ix[i]), until_hand, random_policy, &rng);
    }
    Py_END_ALLOW_THREADS
    release(&slots), release(&idx), release(&seeds);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&seeds);
    return NULL;
}

/* ---------------------------------------------------------------- playout_streams(slots, indices, actions int64 (M,))
 * search.c's play-out by deck streams: each slot's seat to act plays its action, every seat the
 * heuristic to the end of the hand. Each action must be legal where its slot stands. */

static PyObject *py_playout_streams(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *actions_obj;
    if (!PyArg_ParseTuple(args, "OOO", &slots_obj, &idx_obj, &actions_obj)) return NULL;
    Buf slots, idx, actions = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(actions_obj, &actions, 0, 8, "actions") < 0 || check_len(&actions, m * 8, "actions") < 0) goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *ac = (const int64_t *)actions.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        int code = slot_check(slot_at(&slots, ix[i]), ac[i] < 0 || ac[i] >= NUM_ACTIONS ? -1 : (int)ac[i]);
        if (code) {
            PyErr_Format(PyExc_ValueError, "slot %lld: action %lld is %s", (long long)ix[i], (long long)ac[i],
                         code == 1 ? "out of range" : code == 2 ? "not legal there" : "after its episode ended");
            goto fail;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < m; i++) slot_playout_streams(slot_at(&slots, ix[i]), (int)ac[i]);
    Py_END_ALLOW_THREADS
    release(&slots), release(&idx), release(&actions);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&actions);
    return NULL;
}

/* ---------------------------------------------------------------- determinize(slots, indices, seats int64 (M,), seeds uint64 (M,)) */

static PyObject *py_determinize(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seats_obj, *seeds_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &slots_obj, &idx_obj, &seats_obj, &seeds_obj)) return NULL;
    Buf slots, idx, seats = {0}, seeds = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(seats_obj, &seats, 0, 8, "seats") < 0 || check_len(&seats, m * 8, "seats") < 0 ||
        get_buffer(seeds_obj, &seeds, 0, 8, "seeds") < 0 || check_len(&seeds, m * 8, "seeds") < 0)
        goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *se = (const int64_t *)seats.view.buf;
    const uint64_t *sd = (const uint64_t *)seeds.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        Slot *s = slot_at(&slots, ix[i]);
        if (se[i] < 0 || se[i] >= s->g.num_players) {
            PyErr_Format(PyExc_ValueError, "no seat %lld in a %d-player game", (long long)se[i], s->g.num_players);
            goto fail;
        }
        Pcg64 rng;
        pcg_seed(&rng, sd[i]);
        slot_determinize(s, (int)se[i], &rng);
    }
    release(&slots), release(&idx), release(&seats), release(&seeds);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&seats), release(&seeds);
    return NULL;
}

/* The win model in ``model`` (float64, ``hidden`` units a layer) has its size, or a ValueError. */
static int check_win_model(const Buf *model, int hidden) {
    if (hidden < 1 || hidden > WIN_HIDDEN_MAX) {
        PyErr_Format(PyExc_ValueError, "win_hidden must be 1 to %d, not %d", WIN_HIDDEN_MAX, hidden);
        return -1;
    }
    if (model->view.len != (Py_ssize_t)win_model_size(hidden) * 8) {
        PyErr_Format(PyExc_ValueError, "win_model: a model with %d hidden units has %d numbers, not %zd", hidden,
                     win_model_size(hidden), model->view.len / 8);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- hand_values(slots, indices, seat, phases int64 (P,), scores int64 (P,), points_weight, out float64 (M,)[, win_model float64, win_hidden])
 * What the hand played out in each slot was worth to ``seat`` (the search's value, see
 * agents/policies/mcts.py): 2 or -2 if the game ended (won or lost); else its phases made less
 * the best other active seat's (most phases made, then fewest points added), plus
 * points_weight x (the points that seat added less its own) / 100, from ``phases`` and
 * ``scores`` before the hand. With ``win_model`` (a flat network of ``win_hidden`` units):
 * search.c's win_value instead. */

static PyObject *py_hand_values(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *phases_obj, *scores_obj, *out_obj, *model_obj = Py_None;
    int seat, hidden = 0;
    double weight;
    if (!PyArg_ParseTuple(args, "OOiOOdO|Oi", &slots_obj, &idx_obj, &seat, &phases_obj, &scores_obj, &weight, &out_obj,
                          &model_obj, &hidden))
        return NULL;
    Buf slots, idx, phases = {0}, scores = {0}, out = {0}, model = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(phases_obj, &phases, 0, 8, "phases") < 0 || get_buffer(scores_obj, &scores, 0, 8, "scores") < 0 ||
        get_buffer(out_obj, &out, 1, 8, "out") < 0 || check_len(&out, m * 8, "out") < 0)
        goto fail;
    if (model_obj != Py_None && (get_buffer(model_obj, &model, 0, 8, "win_model") < 0 || check_win_model(&model, hidden) < 0))
        goto fail;
    WinModel net = {(const double *)model.view.buf, hidden};
    const int64_t *ix = (const int64_t *)idx.view.buf, *ph = (const int64_t *)phases.view.buf, *sc = (const int64_t *)scores.view.buf;
    double *o = (double *)out.view.buf;
    int phase_values[MAX_PLAYERS] = {0}, score_values[MAX_PLAYERS] = {0};
    for (Py_ssize_t s = 0; s < phases.view.len / 8 && s < MAX_PLAYERS; s++) phase_values[s] = (int)ph[s];
    for (Py_ssize_t s = 0; s < scores.view.len / 8 && s < MAX_PLAYERS; s++) score_values[s] = (int)sc[s];
    for (Py_ssize_t i = 0; i < m; i++) {
        const Game *g = &slot_at(&slots, ix[i])->g;
        int n = g->num_players;
        if (seat < 0 || seat >= n || phases.view.len < n * 8 || scores.view.len < n * 8) {
            PyErr_SetString(PyExc_ValueError, "seat, phases or scores do not fit the game");
            goto fail;
        }
        o[i] = model.ok ? win_value(g, seat, &net) : hand_value(g, seat, phase_values, score_values, weight);
    }
    release(&slots), release(&idx), release(&phases), release(&scores), release(&out), release(&model);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&phases), release(&scores), release(&out), release(&model);
    return NULL;
}

/* ---------------------------------------------------------------- the hand's log
 * A logged move is a row of LOG_WIDTH int16 (phase10_env/core/convert.py's hand_log_rows):
 * seat, top (-1: none), type, from_discard, target, group, card, low_end, num_melds, the two
 * melds' (kind, value, size), then the two melds' card counts (50 each). Every field is checked
 * here, so that the replay (history.c) indexes nothing out of range. */

static int meld_ok(const int16_t *meld, const int16_t *counts) {
    int kind = meld[0], value = meld[1], size = meld[2], total = 0;
    if (kind < SET || kind > COLOUR || size < 1 || size > MAX_GROUP_CARDS) return 0;
    if (kind == SET && (value < 1 || value > NUM_NUMBERS)) return 0;
    if (kind == RUN && (value < 1 || value + size - 1 > NUM_NUMBERS)) return 0;
    if (kind == COLOUR && (value < 0 || value >= NUM_COLOURS)) return 0;
    for (int k = 0; k < NUM_KINDS; k++) {
        if (counts[k] < 0 || counts[k] > 8) return 0;
        total += counts[k];
    }
    return total == size;
}

static LoggedMove *read_log(PyObject *obj, int num_players, int *length, Buf *b) {
    if (get_buffer(obj, b, 0, 2, "log") < 0) return NULL;
    Py_ssize_t rows = b->view.len / (2 * LOG_WIDTH);
    if (b->view.len % (2 * LOG_WIDTH) || rows > 4 * DECK_SIZE * MAX_PLAYERS) {
        PyErr_Format(PyExc_ValueError, "log must be int16 rows of %d (at most %d rows)", LOG_WIDTH, 4 * DECK_SIZE * MAX_PLAYERS);
        return NULL;
    }
    LoggedMove *log = PyMem_Calloc((size_t)(rows ? rows : 1), sizeof *log);
    if (!log) return (LoggedMove *)PyErr_NoMemory();
    const int16_t *r = (const int16_t *)b->view.buf;
    for (Py_ssize_t i = 0; i < rows; i++, r += LOG_WIDTH) {
        LoggedMove *l = &log[i];
        Move *m = &l->move;
        int ok = r[0] >= 0 && r[0] < num_players && r[1] >= -1 && r[1] < NUM_KINDS && r[2] >= MOVE_DRAW && r[2] <= MOVE_DISCARD;
        if (ok) {
            l->seat = (int8_t)r[0];
            l->top = (int8_t)r[1];
            m->type = (int8_t)r[2];
            m->from_discard = (int8_t)r[3];
            m->target = (int8_t)r[4];
            m->group = (int8_t)r[5];
            m->card = (int8_t)r[6];
            m->low_end = (int8_t)r[7];
            m->num_melds = (int8_t)r[8];
        }
        if (ok && m->type == MOVE_DRAW) ok = (r[3] == 0 || r[3] == 1) && (!r[3] || r[1] >= 0);
        else if (ok && m->type == MOVE_DISCARD) ok = r[6] >= 0 && r[6] < NUM_KINDS && r[4] >= -1 && r[4] < num_players && (r[6] == SKIP || r[4] == -1);
        else if (ok && m->type == MOVE_HIT) ok = r[6] >= 0 && r[6] <= WILD && r[4] >= 0 && r[4] < num_players && r[5] >= 0 && r[5] < MAX_GROUPS && (r[7] == 0 || r[7] == 1);
        else if (ok) {
            ok = r[8] >= 1 && r[8] <= MAX_GROUPS;
            for (int g = 0; ok && g < r[8]; g++) {
                ok = meld_ok(r + 9 + 3 * g, r + 15 + NUM_KINDS * g);
                if (!ok) break;
                m->melds[g] = (Meld){(int8_t)r[9 + 3 * g], (int8_t)r[10 + 3 * g], (int8_t)r[11 + 3 * g]};
                for (int k = 0; k < NUM_KINDS; k++) m->cards[g][k] = (uint8_t)r[15 + NUM_KINDS * g + k];
            }
        }
        if (!ok) {
            PyMem_Free(log);
            PyErr_Format(PyExc_ValueError, "log row %zd is not a move of a %d-player game", i, num_players);
            return NULL;
        }
    }
    *length = (int)rows;
    return log;
}

/* The Python error for history_build's failure ``built`` (-2: out of memory; -1: the log does not fit). */
static void history_error(int built) {
    if (built == -2) PyErr_NoMemory();
    else PyErr_SetString(PyExc_ValueError, "the hand's log does not fit the game");
}

/* ---------------------------------------------------------------- search(slots, indices, samples, min_samples, confidence, points_weight, seeds uint64 (M,), out int64 (M,), samples_out int64 (M,)[, weights float64 (M, 6, 50), after_down, consistent, streams, win_model float64, win_hidden, plays, peek, log int16 (T, LOG_WIDTH), history, slip])
 * search.c's rollout search for the seat to act in each slot (which must not be over); with a
 * log (of one slot's hand) and history replays, samples deal from history.c's weighed hands. */

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *seeds_obj, *out_obj, *drawn_obj, *weights_obj = Py_None, *model_obj = Py_None,
             *log_obj = Py_None;
    int replays = 0;
    double slip = 0.25;
    LoggedMove *log = NULL;
    History *history = NULL;
    int log_length = 0;
    SearchSettings cfg;
    cfg.after_down = 0;
    cfg.plays = 0;
    cfg.peek = 0;
    cfg.consistent_tries = 0;
    cfg.streams = 0;
    cfg.win_model.weights = NULL;
    cfg.win_model.hidden = 0;
    if (!PyArg_ParseTuple(args, "OOiiddOOO|OpipOippOid", &slots_obj, &idx_obj, &cfg.samples, &cfg.min_samples, &cfg.confidence,
                          &cfg.points_weight, &seeds_obj, &out_obj, &drawn_obj, &weights_obj, &cfg.after_down,
                          &cfg.consistent_tries, &cfg.streams, &model_obj, &cfg.win_model.hidden, &cfg.plays,
                          &cfg.peek, &log_obj, &replays, &slip))
        return NULL;
    if (cfg.samples < 1 || cfg.min_samples < 2)
        return PyErr_Format(PyExc_ValueError, "samples must be at least 1 and min_samples at least 2");
    if (replays < 0 || replays > HISTORY_MAX || !(slip >= 0 && slip <= 1))
        return PyErr_Format(PyExc_ValueError, "history must be 0 to %d replays and slip 0 to 1", HISTORY_MAX);
    Buf slots, idx, seeds = {0}, out = {0}, drawn = {0}, weights = {0}, model = {0}, logbuf = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (log_obj != Py_None && replays) {
        if (m != 1) {
            PyErr_SetString(PyExc_ValueError, "a hand's log is searched from one slot at a time");
            goto fail;
        }
        if (!(log = read_log(log_obj, slot_at(&slots, ((const int64_t *)idx.view.buf)[0])->g.num_players, &log_length, &logbuf)))
            goto fail;
        if (!(history = PyMem_Malloc(sizeof *history))) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    if (get_buffer(seeds_obj, &seeds, 0, 8, "seeds") < 0 || check_len(&seeds, m * 8, "seeds") < 0 ||
        get_buffer(out_obj, &out, 1, 8, "out") < 0 || check_len(&out, m * 8, "out") < 0 ||
        get_buffer(drawn_obj, &drawn, 1, 8, "samples_out") < 0 || check_len(&drawn, m * 8, "samples_out") < 0)
        goto fail;
    if (model_obj != Py_None) {
        if (get_buffer(model_obj, &model, 0, 8, "win_model") < 0 || check_win_model(&model, cfg.win_model.hidden) < 0)
            goto fail;
        cfg.win_model.weights = (const double *)model.view.buf;
    }
    if (weights_obj != Py_None && (get_buffer(weights_obj, &weights, 0, 8, "weights") < 0 ||
                                   check_len(&weights, m * 8 * MAX_PLAYERS * NUM_KINDS, "weights (M, 6, 50)") < 0))
        goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf;
    const uint64_t *sd = (const uint64_t *)seeds.view.buf;
    int64_t *o = (int64_t *)out.view.buf, *dr = (int64_t *)drawn.view.buf;
    for (Py_ssize_t i = 0; i < m; i++)
        if (slot_at(&slots, ix[i])->g.stage == STAGE_GAME_OVER) {
            PyErr_Format(PyExc_ValueError, "slot %lld: the game is over", (long long)ix[i]);
            goto fail;
        }
    int built = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < m; i++) {
        Pcg64 rng;
        SearchStats stats;
        pcg_seed(&rng, sd[i]);
        const double (*w)[NUM_KINDS] = weights.ok ? (const double (*)[NUM_KINDS])weights.view.buf + i * MAX_PLAYERS : NULL;
        const Slot *root = slot_at(&slots, ix[i]);
        if (history) built = history_build(root, root->g.current, log, log_length, replays, slip, w, &rng, history);
        if (built < 0) break;
        o[i] = search_action(root, &cfg, w, built ? NULL : history, &rng, &stats);
        dr[i] = stats.samples;
    }
    Py_END_ALLOW_THREADS
    if (built < 0) {
        history_error(built);
        goto fail;
    }
    PyMem_Free(log), PyMem_Free(history);
    release(&slots), release(&idx), release(&seeds), release(&out), release(&drawn), release(&weights), release(&model);
    release(&logbuf);
    Py_RETURN_NONE;
fail:
    PyMem_Free(log), PyMem_Free(history);
    release(&slots), release(&idx), release(&seeds), release(&out), release(&drawn), release(&weights), release(&model);
    release(&logbuf);
    return NULL;
}

/* ---------------------------------------------------------------- history(slots, index, seed, log int16 (T, LOG_WIDTH), replays, slip, hands uint8 (R, 6, 50), unlike int16 (R, 6)[, weights float64 (6, 50)]) -> int
 * history.c's weighed worlds for the seat to act in slot ``index``: every hand of each replay's
 * world and each seat's moves unlike the heuristic's; returns the replays made (0: nothing to
 * weigh, the log empty or the pile reshuffled this hand). */

static PyObject *py_history(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *log_obj, *hands_obj, *unlike_obj, *weights_obj = Py_None;
    long long index;
    unsigned long long seed;
    int replays;
    double slip;
    if (!PyArg_ParseTuple(args, "OLKOidOO|O", &slots_obj, &index, &seed, &log_obj, &replays, &slip, &hands_obj, &unlike_obj,
                          &weights_obj))
        return NULL;
    if (replays < 1 || replays > HISTORY_MAX || !(slip >= 0 && slip <= 1))
        return PyErr_Format(PyExc_ValueError, "replays must be 1 to %d and slip 0 to 1", HISTORY_MAX);
    Buf slots, logbuf = {0}, hands = {0}, unlike = {0}, weights = {0};
    LoggedMove *log = NULL;
    History *history = NULL;
    int length = 0, built = -1;
    if (get_buffer(slots_obj, &slots, 1, 1, "slots") < 0) goto fail;
    if (index < 0 || index >= num_slots(&slots)) {
        PyErr_Format(PyExc_IndexError, "slot index %lld out of range", index);
        goto fail;
    }
    const Slot *root = slot_at(&slots, index);
    if (root->g.stage == STAGE_GAME_OVER || root->p.kind != PENDING_NONE) {
        PyErr_SetString(PyExc_ValueError, "the slot's seat to act must be between moves of a game not over");
        goto fail;
    }
    if (!(log = read_log(log_obj, root->g.num_players, &length, &logbuf))) goto fail;
    if (get_buffer(hands_obj, &hands, 1, 1, "hands") < 0 || check_len(&hands, (Py_ssize_t)replays * MAX_PLAYERS * NUM_KINDS, "hands (R, 6, 50)") < 0 ||
        get_buffer(unlike_obj, &unlike, 1, 2, "unlike") < 0 || check_len(&unlike, (Py_ssize_t)replays * MAX_PLAYERS * 2, "unlike (R, 6)") < 0)
        goto fail;
    if (weights_obj != Py_None && (get_buffer(weights_obj, &weights, 0, 8, "weights") < 0 ||
                                   check_len(&weights, 8 * MAX_PLAYERS * NUM_KINDS, "weights (6, 50)") < 0))
        goto fail;
    if (!(history = PyMem_Malloc(sizeof *history))) {
        PyErr_NoMemory();
        goto fail;
    }
    Pcg64 rng;
    pcg_seed(&rng, seed);
    Py_BEGIN_ALLOW_THREADS
    built = history_build(root, root->g.current, log, length, replays, slip,
                          weights.ok ? (const double (*)[NUM_KINDS])weights.view.buf : NULL, &rng, history);
    Py_END_ALLOW_THREADS
    if (built < 0) {
        history_error(built);
        goto fail;
    }
    memcpy(hands.view.buf, history->hands, (size_t)history->count * MAX_PLAYERS * NUM_KINDS);
    memcpy(unlike.view.buf, history->unlike, (size_t)history->count * MAX_PLAYERS * 2);
    int count = history->count;
    PyMem_Free(log), PyMem_Free(history);
    release(&slots), release(&logbuf), release(&hands), release(&unlike), release(&weights);
    return PyLong_FromLong(count);
fail:
    PyMem_Free(log), PyMem_Free(history);
    release(&slots), release(&logbuf), release(&hands), release(&unlike), release(&weights);
    return NULL;
}

/* ---------------------------------------------------------------- belief_features(slots, indices, me int64 (M,), other int64 (M,), out float32 (M, F), hidden float32 (M, 50) or None, unseen float32 (M, 50) or None)
 * belief.c's features of what seat ``me`` may know about seat ``other`` (and, for training, the
 * other's hidden cards and ``me``'s unseen pool). */

static PyObject *py_belief_features(PyObject *self, PyObject *args) {
    PyObject *slots_obj, *idx_obj, *me_obj, *other_obj, *out_obj, *hidden_obj, *unseen_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &slots_obj, &idx_obj, &me_obj, &other_obj, &out_obj, &hidden_obj, &unseen_obj))
        return NULL;
    Buf slots, idx, me = {0}, other = {0}, out = {0}, hidden = {0}, unseen = {0};
    if (open_slots(slots_obj, idx_obj, &slots, &idx) < 0) goto fail;
    Py_ssize_t m = idx.view.len / 8;
    if (get_buffer(me_obj, &me, 0, 8, "me") < 0 || check_len(&me, m * 8, "me") < 0 ||
        get_buffer(other_obj, &other, 0, 8, "other") < 0 || check_len(&other, m * 8, "other") < 0 ||
        get_buffer(out_obj, &out, 1, 4, "out") < 0 || check_len(&out, m * 4 * BELIEF_FEATURES, "out") < 0)
        goto fail;
    if (hidden_obj != Py_None && (get_buffer(hidden_obj, &hidden, 1, 4, "hidden") < 0 || check_len(&hidden, m * 4 * NUM_KINDS, "hidden") < 0))
        goto fail;
    if (unseen_obj != Py_None && (get_buffer(unseen_obj, &unseen, 1, 4, "unseen") < 0 || check_len(&unseen, m * 4 * NUM_KINDS, "unseen") < 0))
        goto fail;
    const int64_t *ix = (const int64_t *)idx.view.buf, *mm = (const int64_t *)me.view.buf, *ot = (const int64_t *)other.view.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        const Game *g = &slot_at(&slots, ix[i])->g;
        if (mm[i] < 0 || mm[i] >= g->num_players || ot[i] < 0 || ot[i] >= g->num_players || mm[i] == ot[i]) {
            PyErr_Format(PyExc_ValueError, "seats %lld and %lld are not two seats of a %d-player game", (long long)mm[i],
                         (long long)ot[i], g->num_players);
            goto fail;
        }
        belief_features(g, (int)mm[i], (int)ot[i], (float *)out.view.buf + i * BELIEF_FEATURES);
        if (hidden.ok || unseen.ok) {
            float h[NUM_KINDS], u[NUM_KINDS];
            belief_targets(g, (int)mm[i], (int)ot[i], h, u);
            if (hidden.ok) memcpy((float *)hidden.view.buf + i * NUM_KINDS, h, sizeof h);
            if (unseen.ok) memcpy((float *)unseen.view.buf + i * NUM_KINDS, u, sizeof u);
        }
    }
    release(&slots), release(&idx), release(&me), release(&other), release(&out), release(&hidden), release(&unseen);
    Py_RETURN_NONE;
fail:
    release(&slots), release(&idx), release(&me), release(&other), release(&out), release(&hidden), release(&unseen);
    return NULL;
}

/* ---------------------------------------------------------------- layout() */

#define F(type, field, fmt) {#field, offsetof(type, field), fmt}
typedef struct { const char *name; size_t offset; const char *format; } Field;

static const Field PCG_FIELDS[] = {F(Pcg64, state, "(2,)u8"), F(Pcg64, inc, "(2,)u8"), F(Pcg64, uinteger, "u4"),
                                   F(Pcg64, has_uint32, "u1"), {NULL, 0, NULL}};
static const Field RULES_FIELDS[] = {F(Rules, phases, "(10,)u1"), F(Rules, num_phases, "u1"), F(Rules, phases_to_win, "u1"),
                                     F(Rules, advance_all, "u1"), F(Rules, per_group, "u1"), F(Rules, skip_rule, "u1"),
                                     {NULL, 0, NULL}};
static const Field MELD_FIELDS[] = {F(Meld, kind, "i1"), F(Meld, value, "i1"), F(Meld, size, "i1"), {NULL, 0, NULL}};
static const Field GROUP_FIELDS[] = {F(Group, kind, "i1"), F(Group, value, "i1"), F(Group, low, "i1"), F(Group, high, "i1"),
                                     F(Group, n, "u1"), F(Group, cards, "(32,)u1"), {NULL, 0, NULL}};
static const Field GAME_FIELDS[] = {
    F(Game, rng, "Pcg64"), F(Game, seed, "u8"), F(Game, rules, "Rules"), F(Game, num_players, "u1"), F(Game, dealer, "u1"),
    F(Game, current, "u1"), F(Game, stage, "u1"), F(Game, replay, "u1"), F(Game, winners, "u1"),
    F(Game, hand_number, "i4"), F(Game, hands, "(6,50)u1"), F(Game, taken, "(6,50)u1"), F(Game, discarded, "(6,50)u1"), F(Game, passed, "(6,50)u1"), F(Game, last_discard, "(6,)i1"), F(Game, hand_size, "(6,)u1"),
    F(Game, supply, "(6,13)u1"), F(Game, draw, "(108,)u1"), F(Game, discard, "(108,)u1"), F(Game, num_draw, "u1"),
    F(Game, num_discard, "u1"), F(Game, discard_counts, "(50,)u1"), F(Game, table_counts, "(50,)u1"),
    F(Game, table, "(6,2)Group"), F(Game, num_groups, "(6,)u1"), F(Game, completed, "(6,)u1"), F(Game, laid, "(6,)u1"),
    F(Game, skip_pending, "(6,)u1"), F(Game, lost_turn, "(6,)u1"), F(Game, skipped, "(6,)u1"), F(Game, active, "(6,)u1"),
    F(Game, scores, "(6,)i4"), {NULL, 0, NULL}};
static const Field PENDING_FIELDS[] = {F(Pending, kind, "i1"), F(Pending, num_laid, "i1"), F(Pending, laid, "Meld"),
                                       F(Pending, laid_cards, "(50,)u1"), F(Pending, has_meld, "i1"), F(Pending, meld, "Meld"),
                                       F(Pending, hit_target, "i1"), F(Pending, hit_group, "i1"), F(Pending, hit_number, "i1"),
                                       F(Pending, picked, "(50,)u1"), {NULL, 0, NULL}};
static const Field EVENTS_FIELDS[] = {F(Events, turns_lost, "u1"), F(Events, hand_ended, "i1"), F(Events, went_out, "i1"),
                                      F(Events, game_ended, "i1"), F(Events, tie_replay, "u1"), F(Events, made_phase, "u1"),
                                      F(Events, points, "(6,)i4"), {NULL, 0, NULL}};
static const Field CONFIG_FIELDS[] = {
    F(EnvConfig, win, "f8"), F(EnvConfig, loss, "f8"), F(EnvConfig, phase_made, "f8"), F(EnvConfig, went_out, "f8"),
    F(EnvConfig, points, "f8"), F(EnvConfig, per_hand, "u1"), F(EnvConfig, episode_hand, "u1"), F(EnvConfig, random_start, "u1"),
    F(EnvConfig, learner_seat, "i1"), F(EnvConfig, shared_random, "u1"), F(EnvConfig, max_steps, "i4"),
    F(EnvConfig, controller, "(6,)u1"), {NULL, 0, NULL}};
static const Field SLOT_FIELDS[] = {
    F(Slot, g, "Game"), F(Slot, p, "Pending"), F(Slot, cfg, "EnvConfig"), F(Slot, env_rng, "Pcg64"),
    F(Slot, agent_rng, "(6,)Pcg64"), F(Slot, episode_seed, "u8"), F(Slot, learner, "u1"), F(Slot, terminated, "u1"),
    F(Slot, truncated, "u1"), F(Slot, last_actor, "u1"), F(Slot, turns, "(6,)i4"), F(Slot, steps, "i4"), F(Slot, cumulative, "(6,)f8"), F(Slot, step_rewards, "(6,)f8"),
    F(Slot, events, "Events"), {NULL, 0, NULL}};

static PyObject *fields_list(const Field *f) {
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (; f->name; f++) {
        PyObject *item = Py_BuildValue("(snz)", f->name, (Py_ssize_t)f->offset, f->format);
        if (!item || PyList_Append(list, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(item);
    }
    return list;
}

static PyObject *py_layout(PyObject *self, PyObject *noargs) {
    struct { const char *name; size_t size; const Field *fields; } structs[] = {
        {"Pcg64", sizeof(Pcg64), PCG_FIELDS},     {"Rules", sizeof(Rules), RULES_FIELDS},
        {"Meld", sizeof(Meld), MELD_FIELDS},       {"Group", sizeof(Group), GROUP_FIELDS},
        {"Game", sizeof(Game), GAME_FIELDS},       {"Pending", sizeof(Pending), PENDING_FIELDS},
        {"Events", sizeof(Events), EVENTS_FIELDS}, {"EnvConfig", sizeof(EnvConfig), CONFIG_FIELDS},
        {"Slot", sizeof(Slot), SLOT_FIELDS},
    };
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++) {
        PyObject *fields = fields_list(structs[i].fields);
        PyObject *item = fields ? Py_BuildValue("(snN)", structs[i].name, (Py_ssize_t)structs[i].size, fields) : NULL;
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"layout", py_layout, METH_NOARGS, "layout() -> [(struct, size, [(field, offset, format)])]: the C structs"},
    {"configure", py_configure, METH_VARARGS, "configure(slots, indices, num_players, rules, config)"},
    {"reset", py_reset, METH_VARARGS, "reset(slots, indices, seeds, has_seed)"},
    {"check", py_check, METH_VARARGS, "check(slots, indices, actions) -> None or (position, code)"},
    {"act", py_act, METH_VARARGS, "act(slots, indices, actions, status): one action of each seat to act"},
    {"advance", py_advance, METH_VARARGS, "advance(slots, indices, None, status): built-in seats play"},
    {"step", py_step, METH_VARARGS, "step(slots, indices, actions, status): act, then advance"},
    {"observe", py_observe, METH_VARARGS, "observe(slots, indices, seats, obs, masks, planning)"},
    {"reset_games", py_reset_games, METH_VARARGS, "reset_games(slots, indices, aec_seeds, dealers, agent_seeds): tournament games"},
    {"playout", py_playout, METH_VARARGS, "playout(slots, indices, until_hand, random_policy, seeds): play every seat out"},
    {"playout_streams", py_playout_streams, METH_VARARGS, "playout_streams(slots, indices, actions): play out by deck streams"},
    {"determinize", py_determinize, METH_VARARGS, "determinize(slots, indices, seats, seeds): redeal what each seat cannot see"},
    {"search", py_search, METH_VARARGS, "search(slots, indices, samples, min_samples, confidence, points_weight, seeds, out, samples_out[, weights, after_down, consistent, streams, win_model, win_hidden, plays, peek, log, history, slip])"},
    {"history", py_history, METH_VARARGS, "history(slots, index, seed, log, replays, slip, hands, unlike[, weights]) -> replays made"},
    {"belief_features", py_belief_features, METH_VARARGS, "belief_features(slots, indices, me, other, out, hidden, unseen)"},
    {"hand_values", py_hand_values, METH_VARARGS, "hand_values(slots, indices, seat, phases, scores, points_weight, out[, win_model, win_hidden])"},
    {"collect", py_collect, METH_VARARGS, "collect(slots, indices, selfplay, rewards, terminated, truncated, seats)"},
    {"heuristic", py_heuristic, METH_VARARGS, "heuristic(slots, indices, out): the heuristic's action for each seat to act"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "The native core of phase10 (see phase10_env/core).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "SLOT_BYTES", (long)sizeof(Slot)) < 0 || PyModule_AddIntConstant(m, "OBS_SIZE", OBS_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "PLANNING_SIZE", PLANNING_SIZE) < 0 || PyModule_AddIntConstant(m, "NUM_ACTIONS", NUM_ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "BELIEF_FEATURES", BELIEF_FEATURES) < 0 || PyModule_AddIntConstant(m, "LOG_WIDTH", LOG_WIDTH) < 0 ||
        PyModule_AddIntConstant(m, "PLAYOUT_HAND_ACTIONS", PLAYOUT_HAND_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
