/* Nomadi's move generator in C: the same answers as movement.Caravan and bitboard.Position's
 * pure-Python code (Spec R-19 .. R-24; R-18 through the returns the caller passes in).
 *
 * Optional: setup.py builds it when a compiler is there, and bitboard.py uses the pure-Python
 * generator when this module cannot be imported (or CARAVANSERAI_PURE_PYTHON=1).  Why it exists:
 * in Python every operation on a 340-bit mask allocates an int and each step of the R-24 search
 * is ~50 bytecodes; here a position is a few hundred bytes of arrays and one die value's moves a
 * few thousand machine instructions (bench/results/2026-12-05-vm-rules-engines-5.md).
 *
 * Cells are numbered as bitboard.Grid numbers its bits: (row, col) is row * W + col with
 * W = width + 1, so the pad column after each row is never playable and a step sideways never
 * wraps onto a playable cell; a step off the top or the bottom leaves 0 .. size - 1.
 *
 *   Grid(height, W, playable, start, far)   the board: three bytes objects of `size` flags
 *   Grid.layout(S, departed, locked)        a Layout of the stones (bit masks as Python ints)
 *   Layout.connected                        R-4: the stones form one N4 piece
 *   Layout.count(value)                     how many (stone, landing) moves a die of `value` has
 *   Layout.allows(value, origin, landing)   whether that move keeps R-19 .. R-24
 *   Layout.landings(value)                  {origin bit: mask of landing bits}, origins ascending
 *   Layout.moves(values, returns, made, make)
 *       the moves of every die value in `values` (ascending), stones and landings ascending, but
 *       for the returns R-18 forbids (`returns`: (value, origin, landing) bits); each move is
 *       made[(value * size + origin) * size + landing], made by make(value, (row, col),
 *       (row, col)) and stored in `made` when missing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LANDINGS 48 /* a 1 has 8; a 2 to 6 at most 4 straight + 4 x 5 x 2 turned (direction, t, side) */

typedef struct {
    PyObject_HEAD
    int height, width, size, nbytes;
    int step[4]; /* ORTHOGONAL: north, east, south, west */
    int around[8]; /* N8: ORTHOGONAL then the diagonals */
    unsigned char *playable, *start, *far;
} GridObject;

typedef struct {
    PyObject_HEAD
    GridObject *grid;
    int n; /* stones, ascending by cell */
    int *cell;
    unsigned char *departed, *locked, *movable;
    int *runs; /* n * 4: the stones in a row after stone i in direction d */
    short *at; /* size: the stone on a cell, or -1 */
    int connected;
    short *label; /* n * n: row i labels the pieces of the stones without stone i (-1: unknown) */
    int *pieces; /* n: how many pieces the stones without stone i make (-1: not worked out) */
    int done[7], count[7];
    unsigned short *pairs[7]; /* 2 * count[v]: origin, landing */
} LayoutObject;

static PyTypeObject GridType;
static PyTypeObject LayoutType;

/* -- Python ints <-> little-endian bytes ---------------------------------------------------- */

static int read_mask(PyObject *value, unsigned char *buffer, int nbytes) {
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "a mask must be an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t needed = PyLong_AsNativeBytes(value, buffer, nbytes,
                                             Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                                 | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (needed < 0) return -1;
    if (needed > nbytes) {
        PyErr_SetString(PyExc_OverflowError, "a mask is larger than the board");
        return -1;
    }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)value, buffer, (size_t)nbytes, 1, 0);
#endif
}

static PyObject *make_mask(const unsigned char *buffer, int nbytes) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(buffer, nbytes, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray(buffer, (size_t)nbytes, 1, 0);
#endif
}

/* -- Grid -------------------------------------------------------------------------------------- */

static int flags_of(PyObject *value, int size, unsigned char **out) {
    char *data;
    Py_ssize_t length;
    if (PyBytes_AsStringAndSize(value, &data, &length) < 0) return -1;
    if (length != size) {
        PyErr_SetString(PyExc_ValueError, "a flag string must hold one byte per cell");
        return -1;
    }
    *out = PyMem_Malloc(size);
    if (*out == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(*out, data, size);
    return 0;
}

static PyObject *Grid_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    int height, width;
    PyObject *playable, *start, *far;
    if (!PyArg_ParseTuple(args, "iiSSS", &height, &width, &playable, &start, &far)) return NULL;
    if (height < 1 || width < 2 || height > 1000 || width > 1000 || (long)height * width >= 32768) {
        PyErr_SetString(PyExc_ValueError, "a board of 1 to 32767 cells");
        return NULL;
    }
    GridObject *self = (GridObject *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->height = height;
    self->width = width;
    self->size = height * width;
    self->nbytes = (self->size + 7) / 8 + 1; /* room for the sign bit of a Python int */
    int step[4] = {-width, 1, width, -1};
    int around[8] = {-width, 1, width, -1, -width + 1, width + 1, width - 1, -width - 1};
    memcpy(self->step, step, sizeof step);
    memcpy(self->around, around, sizeof around);
    if (flags_of(playable, self->size, &self->playable) < 0 || flags_of(start, self->size, &self->start) < 0
        || flags_of(far, self->size, &self->far) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static void Grid_dealloc(GridObject *self) {
    PyMem_Free(self->playable);
    PyMem_Free(self->start);
    PyMem_Free(self->far);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* -- Layout: the stones, their rows and whether each can move (R-19) ------------------------ */

static void Layout_dealloc(LayoutObject *self) {
    for (int v = 1; v <= 6; v++) PyMem_Free(self->pairs[v]);
    PyMem_Free(self->cell);
    PyMem_Free(self->departed);
    PyMem_Free(self->runs);
    PyMem_Free(self->at);
    PyMem_Free(self->label);
    PyMem_Free(self->pieces);
    Py_XDECREF(self->grid);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline int stone_on(const LayoutObject *self, int cell) {
    return cell >= 0 && cell < self->grid->size ? self->at[cell] : -1;
}

static PyObject *Grid_layout(GridObject *grid, PyObject *args) {
    PyObject *stones, *departed, *locked;
    if (!PyArg_ParseTuple(args, "OOO", &stones, &departed, &locked)) return NULL;
    int nbytes = grid->nbytes, size = grid->size;
    unsigned char *masks = PyMem_Calloc(3, nbytes);
    if (masks == NULL) return PyErr_NoMemory();
    if (read_mask(stones, masks, nbytes) < 0 || read_mask(departed, masks + nbytes, nbytes) < 0
        || read_mask(locked, masks + 2 * nbytes, nbytes) < 0) {
        PyMem_Free(masks);
        return NULL;
    }
    LayoutObject *self = (LayoutObject *)LayoutType.tp_alloc(&LayoutType, 0);
    if (self == NULL) {
        PyMem_Free(masks);
        return NULL;
    }
    Py_INCREF(grid);
    self->grid = grid;
    int n = 0;
    for (int b = 0; b < size; b++) n += masks[b >> 3] >> (b & 7) & 1;
    int room = n > 0 ? n : 1;
    self->n = n;
    self->cell = PyMem_Malloc(sizeof(int) * room);
    self->departed = PyMem_Malloc(3 * room);
    self->runs = PyMem_Malloc(sizeof(int) * 4 * room);
    self->at = PyMem_Malloc(sizeof(short) * size);
    self->label = PyMem_Malloc(sizeof(short) * room * room);
    self->pieces = PyMem_Malloc(sizeof(int) * room);
    if (!self->cell || !self->departed || !self->runs || !self->at || !self->label || !self->pieces) {
        PyMem_Free(masks);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->locked = self->departed + room;
    self->movable = self->departed + 2 * room;
    for (int b = 0; b < size; b++) self->at[b] = -1;
    int i = 0;
    for (int b = 0; b < size; b++) {
        if (masks[b >> 3] >> (b & 7) & 1) {
            if (!grid->playable[b]) {
                PyMem_Free(masks);
                Py_DECREF(self);
                PyErr_SetString(PyExc_ValueError, "a stone stands on a cell that is not playable");
                return NULL;
            }
            self->cell[i] = b;
            self->at[b] = (short)i;
            self->departed[i] = masks[nbytes + (b >> 3)] >> (b & 7) & 1;
            self->locked[i] = masks[2 * nbytes + (b >> 3)] >> (b & 7) & 1;
            self->pieces[i] = -1;
            i++;
        }
    }
    PyMem_Free(masks);
    for (i = 0; i < n; i++) {
        int free_side = 0;
        for (int d = 0; d < 4; d++) {
            int step = grid->step[d], count = 0, here = self->cell[i] + step;
            while (stone_on(self, here) >= 0) {
                count++;
                here += step;
            }
            self->runs[4 * i + d] = count;
            if (count == 0) free_side = 1;
        }
        self->movable[i] = !self->locked[i] && free_side; /* */
    }
    /* one N4 piece, by a search from the first stone (the labels of "without nobody") */
    int reached = 0;
    if (n > 0) {
        short *todo = self->label; /* a scratch stack: the labels are worked out later */
        char *seen = PyMem_Calloc(n, 1);
        if (seen == NULL) {
            Py_DECREF(self);
            return PyErr_NoMemory();
        }
        int top = 0;
        todo[top++] = 0;
        seen[0] = 1;
        reached = 1;
        while (top) {
            int s = todo[--top];
            for (int d = 0; d < 4; d++) {
                int t = stone_on(self, self->cell[s] + grid->step[d]);
                if (t >= 0 && !seen[t]) {
                    seen[t] = 1;
                    reached++;
                    todo[top++] = (short)t;
                }
            }
        }
        PyMem_Free(seen);
    }
    self->connected = reached == n;
    return (PyObject *)self;
}

/* -- the pieces of the stones without one ------------------------------------------------- */

/* How many N4 pieces the stones without stone `gone` make; row `gone` of `label` numbers them. */
static int pieces_without(LayoutObject *self, int gone) {
    if (self->pieces[gone] >= 0) return self->pieces[gone];
    int n = self->n;
    short *label = self->label + gone * n;
    short stack[n > 0 ? n : 1];
    for (int j = 0; j < n; j++) label[j] = -1;
    int count = 0;
    for (int seed = 0; seed < n; seed++) {
        if (seed == gone || label[seed] >= 0) continue;
        int top = 0;
        stack[top++] = (short)seed;
        label[seed] = (short)count;
        while (top) {
            int s = stack[--top];
            for (int d = 0; d < 4; d++) {
                int t = stone_on(self, self->cell[s] + self->grid->step[d]);
                if (t >= 0 && t != gone && label[t] < 0) {
                    label[t] = (short)count;
                    stack[top++] = (short)t;
                }
            }
        }
        count++;
    }
    self->pieces[gone] = count;
    return count;
}

/* -- R-19 .. R-24 for one die value ------------------------------------------------------------- */

static void add_landing(int *found, int *count, int cell) {
    for (int k = 0; k < *count; k++)
        if (found[k] == cell) return;
    if (*count < MAX_LANDINGS) found[(*count)++] = cell;
}

static int work_out(LayoutObject *self, int value) {
    if (self->done[value]) return 0;
    GridObject *g = self->grid;
    int n = self->n, size = g->size;
    unsigned short *pairs = PyMem_Malloc(sizeof(unsigned short) * 2 * (n * MAX_LANDINGS + 1));
    if (pairs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (!self->movable[i]) continue;
        int origin = self->cell[i], found[MAX_LANDINGS], count = 0;
        if (value == 1) { /* the eight cells around */
            for (int k = 0; k < 8; k++) {
                int there = origin + g->around[k];
                if (there >= 0 && there < size && g->playable[there] && self->at[there] < 0)
                    add_landing(found, &count, there);
            }
        } else {
            for (int d = 0; d < 4; d++) { /* straight over value - 1 stones */
                if (self->runs[4 * i + d] == value - 1) {
                    int there = origin + value * g->step[d];
                    if (there >= 0 && there < size && g->playable[there]) add_landing(found, &count, there);
                }
            }
            if (value >= 5) { /* or turning once on the t-th stone jumped */
                for (int d = 0; d < 4; d++) {
                    int run = self->runs[4 * i + d];
                    for (int t = 1; t <= run && t <= 5; t++) {
                        int corner = origin + t * g->step[d], c = self->at[corner];
                        int seconds[2] = {(d + 1) % 4, (d + 3) % 4};
                        for (int k = 0; k < 2; k++) {
                            int rest = self->runs[4 * c + seconds[k]];
                            if (t + rest + 1 != value) continue;
                            int there = corner + (rest + 1) * g->step[seconds[k]];
                            if (there >= 0 && there < size && g->playable[there]) add_landing(found, &count, there);
                        }
                    }
                }
            }
        }
        int kept = 0; /* */
        for (int k = 0; k < count; k++) {
            int there = found[k];
            if (self->departed[i] && g->start[there]) continue;
            if (g->far[origin] && !g->far[there]) continue;
            found[kept++] = there;
        }
        if (!kept) continue;
        for (int k = 1; k < kept; k++) { /* landings ascending */
            int there = found[k], j = k - 1;
            while (j >= 0 && found[j] > there) {
                found[j + 1] = found[j];
                j--;
            }
            found[j + 1] = there;
        }
        int pieces = pieces_without(self, i); /* */
        const short *label = self->label + i * n;
        for (int k = 0; k < kept; k++) {
            int there = found[k];
            if (pieces > 1) {
                short touched[4];
                int distinct = 0;
                for (int d = 0; d < 4; d++) {
                    int s = stone_on(self, there + g->step[d]);
                    if (s < 0 || s == i) continue;
                    int j = 0;
                    while (j < distinct && touched[j] != label[s]) j++;
                    if (j == distinct) touched[distinct++] = label[s];
                }
                if (distinct != pieces) continue;
            } else if (value == 1 && n > 1) {
                /* a 1 jumps nothing: it must land next to another stone (a 2 to 6 lands next
                   to the last stone it jumped) */
                int touches = 0;
                for (int d = 0; d < 4 && !touches; d++) {
                    int s = stone_on(self, there + g->step[d]);
                    touches = s >= 0 && s != i;
                }
                if (!touches) continue;
            }
            pairs[2 * total] = (unsigned short)origin;
            pairs[2 * total + 1] = (unsigned short)there;
            total++;
        }
    }
    if (total < n * MAX_LANDINGS) { /* kept with the position: only the room it uses */
        unsigned short *fitted = PyMem_Realloc(pairs, sizeof(unsigned short) * 2 * (total + 1));
        if (fitted != NULL) pairs = fitted;
    }
    self->pairs[value] = pairs;
    self->count[value] = total;
    self->done[value] = 1;
    return 0;
}

static int value_of(PyObject *arg, int *value) {
    long v = PyLong_AsLong(arg);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 1 || v > 6) {
        PyErr_SetString(PyExc_ValueError, "a die shows 1 to 6");
        return -1;
    }
    *value = (int)v;
    return 0;
}

static PyObject *Layout_count(LayoutObject *self, PyObject *arg) {
    int value;
    if (value_of(arg, &value) < 0 || work_out(self, value) < 0) return NULL;
    return PyLong_FromLong(self->count[value]);
}

static PyObject *Layout_allows(LayoutObject *self, PyObject *args) {
    int value, origin, landing;
    if (!PyArg_ParseTuple(args, "iii", &value, &origin, &landing)) return NULL;
    if (value < 1 || value > 6) Py_RETURN_FALSE;
    if (work_out(self, value) < 0) return NULL;
    const unsigned short *pairs = self->pairs[value];
    for (int k = 0; k < self->count[value]; k++)
        if (pairs[2 * k] == origin && pairs[2 * k + 1] == landing) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *Layout_landings(LayoutObject *self, PyObject *arg) {
    int value;
    if (value_of(arg, &value) < 0 || work_out(self, value) < 0) return NULL;
    PyObject *found = PyDict_New();
    if (found == NULL) return NULL;
    int nbytes = self->grid->nbytes;
    unsigned char *mask = PyMem_Calloc(nbytes, 1);
    if (mask == NULL) {
        Py_DECREF(found);
        return PyErr_NoMemory();
    }
    const unsigned short *pairs = self->pairs[value];
    int total = self->count[value];
    for (int k = 0; k < total;) {
        int origin = pairs[2 * k];
        memset(mask, 0, nbytes);
        for (; k < total && pairs[2 * k] == origin; k++) mask[pairs[2 * k + 1] >> 3] |= 1 << (pairs[2 * k + 1] & 7);
        PyObject *key = PyLong_FromLong(origin), *landings = make_mask(mask, nbytes);
        int failed = key == NULL || landings == NULL || PyDict_SetItem(found, key, landings) < 0;
        Py_XDECREF(key);
        Py_XDECREF(landings);
        if (failed) {
            PyMem_Free(mask);
            Py_DECREF(found);
            return NULL;
        }
    }
    PyMem_Free(mask);
    return found;
}

static PyObject *Layout_moves(LayoutObject *self, PyObject *args) {
    PyObject *values, *returns, *made, *make;
    if (!PyArg_ParseTuple(args, "OOO!O", &values, &returns, &PyDict_Type, &made, &make)) return NULL;
    PyObject *value_list = PySequence_Fast(values, "values must be a sequence");
    if (value_list == NULL) return NULL;
    PyObject *return_list = PySequence_Fast(returns, "returns must be a sequence");
    if (return_list == NULL) {
        Py_DECREF(value_list);
        return NULL;
    }
    PyObject *moves = PyList_New(0);
    Py_ssize_t n_returns = PySequence_Fast_GET_SIZE(return_list);
    int *barred = PyMem_Malloc(sizeof(int) * 3 * (n_returns + 1));
    int W = self->grid->width;
    long size = self->grid->size;
    if (moves == NULL || barred == NULL) goto fail;
    for (Py_ssize_t r = 0; r < n_returns; r++) {
        PyObject *item = PySequence_Fast_GET_ITEM(return_list, r);
        if (!PyArg_ParseTuple(item, "iii", &barred[3 * r], &barred[3 * r + 1], &barred[3 * r + 2])) goto fail;
    }
    for (Py_ssize_t v = 0; v < PySequence_Fast_GET_SIZE(value_list); v++) {
        int value;
        if (value_of(PySequence_Fast_GET_ITEM(value_list, v), &value) < 0 || work_out(self, value) < 0) goto fail;
        const unsigned short *pairs = self->pairs[value];
        for (int k = 0; k < self->count[value]; k++) {
            int origin = pairs[2 * k], landing = pairs[2 * k + 1], forbidden = 0;
            for (Py_ssize_t r = 0; r < n_returns && !forbidden; r++) /* */
                forbidden = barred[3 * r] == value && barred[3 * r + 1] == origin && barred[3 * r + 2] == landing;
            if (forbidden) continue;
            PyObject *key = PyLong_FromLong((value * size + origin) * size + landing);
            if (key == NULL) goto fail;
            PyObject *move = PyDict_GetItemWithError(made, key); /* borrowed */
            if (move == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(key);
                    goto fail;
                }
                move = PyObject_CallFunction(make, "i(ii)(ii)", value, origin / W, origin % W, landing / W, landing % W);
                if (move == NULL || PyDict_SetItem(made, key, move) < 0) {
                    Py_XDECREF(move);
                    Py_DECREF(key);
                    goto fail;
                }
                Py_DECREF(move); /* `made` holds it */
            }
            Py_DECREF(key);
            if (PyList_Append(moves, move) < 0) goto fail;
        }
    }
    PyMem_Free(barred);
    Py_DECREF(value_list);
    Py_DECREF(return_list);
    return moves;
fail:
    PyMem_Free(barred);
    Py_XDECREF(moves);
    Py_DECREF(value_list);
    Py_DECREF(return_list);
    return NULL;
}

static PyObject *Layout_get_connected(LayoutObject *self, void *closure) {
    return PyBool_FromLong(self->connected);
}

static PyMethodDef Grid_methods[] = {
    {"layout", (PyCFunction)Grid_layout, METH_VARARGS, "layout(S, departed, locked): the Layout of these stones"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Layout_methods[] = {
    {"count", (PyCFunction)Layout_count, METH_O, "count(value): the moves of a die of value (R-19 .. R-24)"},
    {"allows", (PyCFunction)Layout_allows, METH_VARARGS, "allows(value, origin, landing): R-19 .. R-24 kept"},
    {"landings", (PyCFunction)Layout_landings, METH_O, "landings(value): {origin bit: landings mask}"},
    {"moves", (PyCFunction)Layout_moves, METH_VARARGS, "moves(values, returns, made, make): the die moves"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Layout_getset[] = {
    {"connected", (getter)Layout_get_connected, NULL, "R-4: the stones form one N4 piece", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject GridType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "app.rulesets.nomadi._movegen.Grid",
    .tp_basicsize = sizeof(GridObject),
    .tp_dealloc = (destructor)Grid_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Grid(height, W, playable, start, far): a board's cells, one flag byte each",
    .tp_methods = Grid_methods,
    .tp_new = Grid_new,
};

static PyTypeObject LayoutType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "app.rulesets.nomadi._movegen.Layout",
    .tp_basicsize = sizeof(LayoutObject),
    .tp_dealloc = (destructor)Layout_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The stones of one position and their moves (made by Grid.layout)",
    .tp_methods = Layout_methods,
    .tp_getset = Layout_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen", "Nomadi's move generator in C (see the file's comment).", -1, NULL,
};

PyMODINIT_FUNC PyInit__movegen(void) {
    if (PyType_Ready(&GridType) < 0 || PyType_Ready(&LayoutType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&GridType);
    if (PyModule_AddObject(m, "Grid", (PyObject *)&GridType) < 0) {
        Py_DECREF(&GridType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
