/* Composes an observation vector in one call (phase10_env.observation uses it when built).
 *
 * compose(out, hand, top, discards, table, seats, start, used, tail)
 *
 *   out       writable float32 buffer of L values
 *   hand, discards, table
 *             K card counts each (bytes-like, one byte per card kind)
 *   top       the discard pile's top card kind, or -1 for an empty pile
 *   seats     float32 buffer; values [start, start + used) are copied
 *   tail      float32 buffer of T values
 *
 * writes out = [hand | one-hot(top) | discards | table | seats[start:start+used] | zeros | tail],
 * the card parts converted from counts to floats and the zeros filling up to L - T. It knows
 * nothing else of the layout, which observation.py defines and documents.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static int get(PyObject *obj, Py_buffer *view, int writable, const char *what) {
    if (PyObject_GetBuffer(obj, view, writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Format(PyExc_TypeError, "compose(): %s must be a contiguous%s buffer", what, writable ? " writable" : "");
        return -1;
    }
    return 0;
}

static PyObject *compose(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) return PyErr_Format(PyExc_TypeError, "compose() takes 9 arguments (%zd given)", nargs);
    Py_ssize_t top = PyLong_AsSsize_t(args[2]), start = PyLong_AsSsize_t(args[6]), used = PyLong_AsSsize_t(args[7]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer out, hand, discards, table, seats, tail;
    PyObject *result = NULL;
    if (get(args[0], &out, 1, "out") < 0) return NULL;
    if (get(args[1], &hand, 0, "hand") < 0) goto release_out;
    if (get(args[3], &discards, 0, "discards") < 0) goto release_hand;
    if (get(args[4], &table, 0, "table") < 0) goto release_discards;
    if (get(args[5], &seats, 0, "seats") < 0) goto release_table;
    if (get(args[8], &tail, 0, "tail") < 0) goto release_seats;

    Py_ssize_t kinds = hand.len, length = out.len / 4, tail_length = tail.len / 4;
    Py_ssize_t seats_end = 4 * kinds + used;
    if (out.itemsize != 4 || seats.itemsize != 4 || tail.itemsize != 4 || hand.itemsize != 1 ||
        discards.itemsize != 1 || table.itemsize != 1) {
        PyErr_SetString(PyExc_TypeError, "compose(): out, seats and tail must hold float32, the card parts bytes");
    } else if (discards.len != kinds || table.len != kinds || top < -1 || top >= kinds) {
        PyErr_SetString(PyExc_ValueError, "compose(): the card parts differ in size or top is not a card kind");
    } else if (start < 0 || used < 0 || (start + used) * 4 > seats.len || seats_end + tail_length > length) {
        PyErr_SetString(PyExc_ValueError, "compose(): the seat values or the tail do not fit");
    } else {
        float *o = (float *)out.buf;
        const unsigned char *parts[3] = {hand.buf, discards.buf, table.buf};
        const Py_ssize_t at[3] = {0, 2 * kinds, 3 * kinds};
        for (int p = 0; p < 3; p++)
            for (Py_ssize_t k = 0; k < kinds; k++) o[at[p] + k] = (float)parts[p][k];
        for (Py_ssize_t k = 0; k < kinds; k++) o[kinds + k] = 0.0f;
        if (top >= 0) o[kinds + top] = 1.0f;
        memcpy(o + 4 * kinds, (const float *)seats.buf + start, used * sizeof(float));
        memset(o + seats_end, 0, (length - tail_length - seats_end) * sizeof(float));
        memcpy(o + length - tail_length, tail.buf, tail_length * sizeof(float));
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&tail);
release_seats:
    PyBuffer_Release(&seats);
release_table:
    PyBuffer_Release(&table);
release_discards:
    PyBuffer_Release(&discards);
release_hand:
    PyBuffer_Release(&hand);
release_out:
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"compose", (PyCFunction)(void (*)(void))compose, METH_FASTCALL,
     "compose(out, hand, top, discards, table, seats, start, used, tail): fill an observation vector"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_compose", "Observation composition in one call.", -1, methods};

PyMODINIT_FUNC PyInit__compose(void) { return PyModule_Create(&module); }
