/* The lay-down search of search.laydowns_from_supply, compiled.
 *
 * search.py holds the reference implementation in Python and documents the method; this file
 * follows it step by step (same options, same order of results) and is used in its place when
 * the extension is built. tests/engine/test_search_speedup.py checks that the two agree.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NUM_NUMBERS 12
#define SET 0

typedef struct {
    int value;
    int naturals;
} Option;

static int popcount(unsigned x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Most naturals one group of (kind, size) can use: _most_naturals. */
static int most_naturals(int kind, int size, const int *supply, unsigned present) {
    int best = 0;
    if (kind == SET) {
        for (int v = 1; v <= NUM_NUMBERS; v++)
            if (supply[v] > best) best = supply[v];
        return best < size ? best : size;
    }
    unsigned window = (1u << size) - 1;
    for (int v = 1; v <= NUM_NUMBERS - size + 1; v++) {
        int nat = popcount((present >> (v - 1)) & window);
        if (nat > best) best = nat;
    }
    return best;
}

/* Every group of (kind, size) the supply can fill with at most ``wilds`` Wilds: _options. */
static int options(int kind, int size, const int *supply, unsigned present, int wilds, int min_value, Option *out) {
    int least = size - wilds, n = 0;
    if (kind == SET) {
        for (int v = min_value; v <= NUM_NUMBERS; v++)
            if (supply[v] >= least) {
                out[n].value = v;
                out[n++].naturals = supply[v] < size ? supply[v] : size;
            }
        return n;
    }
    if (least < 0) least = 0;
    unsigned window = (1u << size) - 1;
    for (int v = min_value; v <= NUM_NUMBERS - size + 1; v++) {
        int nat = popcount((present >> (v - 1)) & window);
        if (nat >= least) {
            out[n].value = v;
            out[n++].naturals = nat;
        }
    }
    return n;
}

static int read_int(PyObject *obj, const char *what, long low, long high, int *out) {
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be in [%ld, %ld], not %ld", what, low, high, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Append (meld1,) or (meld1, meld2) with the shared Meld objects of the value tables. */
static int append(PyObject *out, PyObject *melds1, int v1, PyObject *melds2, int v2) {
    PyObject *key = PyLong_FromLong(v1);
    PyObject *m1 = PyDict_GetItemWithError(melds1, key);
    Py_DECREF(key);
    if (m1 == NULL) goto missing;
    PyObject *item;
    if (melds2 == NULL) {
        item = PyTuple_Pack(1, m1);
    } else {
        key = PyLong_FromLong(v2);
        PyObject *m2 = PyDict_GetItemWithError(melds2, key);
        Py_DECREF(key);
        if (m2 == NULL) goto missing;
        item = PyTuple_Pack(2, m1, m2);
    }
    if (item == NULL) return -1;
    int rc = PyList_Append(out, item);
    Py_DECREF(item);
    return rc;
missing:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "no meld for a value the search produced");
    return -1;
}

/* laydowns(supply, wilds, kind1, size1, kind2, size2, per_group, melds1, melds2) -> list
 *
 * supply: the 13 number counts (index 0 unused); kind2 is -1 for a one-group phase (then
 * size2 and melds2 are ignored); melds1 / melds2: {value: Meld} of each group's kind and size.
 * Set and run phases only (colour phases are enumerated in Python). */
static PyObject *laydowns(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "laydowns() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "supply must be a sequence");
    if (seq == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != NUM_NUMBERS + 1) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "supply must hold %d counts", NUM_NUMBERS + 1);
    }
    int supply[NUM_NUMBERS + 1];
    unsigned present = 0;
    for (int n = 0; n <= NUM_NUMBERS; n++) {
        if (read_int(PySequence_Fast_GET_ITEM(seq, n), "a supply count", 0, 1000, &supply[n]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (n && supply[n]) present |= 1u << (n - 1);
    }
    Py_DECREF(seq);
    int wilds, kind1, size1, kind2, size2 = 0, per_group;
    if (read_int(args[1], "wilds", 0, 1000, &wilds) < 0 || read_int(args[2], "kind1", 0, 1, &kind1) < 0 ||
        read_int(args[3], "size1", 1, NUM_NUMBERS, &size1) < 0 || read_int(args[4], "kind2", -1, 1, &kind2) < 0)
        return NULL;
    int two = kind2 >= 0;
    if (two && read_int(args[5], "size2", 1, NUM_NUMBERS, &size2) < 0) return NULL;
    per_group = PyObject_IsTrue(args[6]);
    if (per_group < 0) return NULL;
    PyObject *melds1 = args[7], *melds2 = two ? args[8] : NULL;
    if (!PyDict_Check(melds1) || (two && !PyDict_Check(melds2)))
        return PyErr_Format(PyExc_TypeError, "melds1 and melds2 must be dicts of value -> Meld");

    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    if (most_naturals(kind1, size1, supply, present) + wilds < size1 ||
        (two && most_naturals(kind2, size2, supply, present) + wilds < size2))
        return out;
    Option first[NUM_NUMBERS], second[NUM_NUMBERS];
    int n1 = options(kind1, size1, supply, present, wilds, 1, first);
    if (!two) {
        for (int i = 0; i < n1; i++)
            if (first[i].naturals && append(out, melds1, first[i].value, NULL, 0) < 0) goto fail;
        return out;
    }
    int same = kind1 == kind2 && size1 == size2;
    for (int i = 0; i < n1; i++) {
        int v1 = first[i].value, nat1 = first[i].naturals;
        int lo1 = v1, hi1 = kind1 == SET ? v1 : v1 + size1 - 1;
        /* Take the first group's naturals out of the supply (_take); ``taken`` marks their numbers. */
        int left_supply[NUM_NUMBERS + 1];
        memcpy(left_supply, supply, sizeof supply);
        unsigned left = present, taken = 0;
        if (kind1 == SET) {
            if (nat1) taken = 1u << (v1 - 1);
            left_supply[v1] -= nat1;
        } else {
            for (int n = lo1; n <= hi1; n++)
                if (left_supply[n]) {
                    left_supply[n]--;
                    taken |= 1u << (n - 1);
                }
        }
        for (int n = lo1; n <= hi1; n++)
            if (!left_supply[n]) left &= ~(1u << (n - 1));
        int wilds_left = wilds - size1 + nat1;
        if (most_naturals(kind2, size2, left_supply, left) + wilds_left < size2) continue;
        int n2 = options(kind2, size2, left_supply, left, wilds_left, same ? v1 : 1, second);
        for (int j = 0; j < n2; j++) {
            int v2 = second[j].value, nat2 = second[j].naturals;
            if (per_group && !nat2) {
                /* The first group may pass on a natural of a number the second group uses. */
                int lo2 = v2, hi2 = kind2 == SET ? v2 : v2 + size2 - 1;
                int lo = lo1 > lo2 ? lo1 : lo2, hi = hi1 < hi2 ? hi1 : hi2;
                unsigned overlap = hi >= lo ? ((1u << (hi - lo + 1)) - 1) << (lo - 1) : 0;
                if (nat1 < 2 || !(taken & overlap)) continue;
            } else if (!(per_group ? nat1 : nat1 + nat2)) {
                continue;
            }
            if (append(out, melds1, v1, melds2, v2) < 0) goto fail;
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"laydowns", (PyCFunction)(void (*)(void))laydowns, METH_FASTCALL,
     "laydowns(supply, wilds, kind1, size1, kind2, size2, per_group, melds1, melds2) -> list of meld tuples"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search", "Compiled lay-down search.", -1, methods};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&module); }
