/* The leaves a forest's rows reach: the compiled walk of pagesieve.classify.classifier.ForestArrays.
 *
 * One function, leaves(), fills the (n, n_trees) matrix of leaf node numbers that
 * ForestArrays._leaves_numpy computes with numpy gathers, by descending each tree for each row in
 * a plain loop. It only walks: Python sums the leaf values and takes the sigmoid as before, so the
 * probabilities are the numpy walk's to the bit. Arrays come through the buffer protocol (no numpy
 * headers needed to build); the loop runs without the GIL, so the two halves of a large page
 * (FOREST_SPLIT_ROWS) walk in two threads. Optional: without a compiler the package installs
 * without this module and classifier.py walks with numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

/* The kinds of item leaves() reads: 'f' float64, 'i' signed integer of sizeof(Py_ssize_t)
 * (numpy's intp), 'b' bool (numpy's, one byte, 0 or 1; no other byte type, whose ~ in the numpy
 * walk is not a logical not). */
static int
format_is(const Py_buffer *view, char kind)
{
    const char *f = view->format ? view->format : "B";
    if (*f == '@' || *f == '=')
        f++;
#if PY_LITTLE_ENDIAN
    else if (*f == '<')
        f++;
#else
    else if (*f == '>' || *f == '!')
        f++;
#endif
    if (f[0] == '\0' || f[1] != '\0')
        return 0;
    switch (kind) {
    case 'f':
        return *f == 'd' && view->itemsize == (Py_ssize_t)sizeof(double);
    case 'i':
        return strchr("nlqi", *f) != NULL && view->itemsize == (Py_ssize_t)sizeof(Py_ssize_t);
    case 'b':
        return *f == '?' && view->itemsize == 1;
    }
    return 0;
}

/* Take the C-contiguous buffer of `obj` into `view`: `ndim` dimensions of items of `kind`.
 * Returns 0, or -1 with ValueError set (and no buffer held). */
static int
take(PyObject *obj, Py_buffer *view, const char *name, char kind, int ndim, int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: not a C-contiguous%s buffer", name, writable ? " writable" : "");
        return -1;
    }
    if (view->ndim != ndim || !format_is(view, kind)) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d dimension(s) of %s, got %d of '%s' (%zd bytes)",
                     name, ndim, kind == 'f' ? "float64" : kind == 'i' ? "intp" : "bool",
                     view->ndim, view->format ? view->format : "B", view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

enum { GOOD, BAD_NODE, BAD_FEATURE };

/* The loop of leaves(), without the GIL: tree by tree (its nodes stay in cache over the rows),
 * row by row. Returns GOOD, or BAD_NODE / BAD_FEATURE with the number out of range in *bad. */
static int
walk(const double *z, Py_ssize_t n, Py_ssize_t width, const Py_ssize_t *feature, const double *threshold,
     const unsigned char *missing_left, const Py_ssize_t *children, Py_ssize_t n_nodes,
     const Py_ssize_t *roots, Py_ssize_t n_trees, const Py_ssize_t *active, Py_ssize_t levels,
     Py_ssize_t *out, Py_ssize_t *bad)
{
    for (Py_ssize_t t = 0; t < n_trees; t++) {
        Py_ssize_t steps = 0;  /* the levels that walk tree t, as the numpy loop's node[:, :active[s]] */
        for (Py_ssize_t s = 0; s < levels; s++)
            steps += active[s] > t;
        const Py_ssize_t root = roots[t];
        if (root < 0 || root >= n_nodes) {
            *bad = root;
            return BAD_NODE;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            const double *row = z + i * width;
            Py_ssize_t node = root;
            for (Py_ssize_t s = 0; s < steps; s++) {
                const Py_ssize_t left = children[2 * node], right = children[2 * node + 1];
                if (left == node && right == node)
                    break;  /* a leaf: the remaining levels keep it */
                const Py_ssize_t f = feature[node];
                if (f < 0 || f >= width) {
                    *bad = f;
                    return BAD_FEATURE;
                }
                const double x = row[f];
                node = (x > threshold[node] || (isnan(x) && !missing_left[node])) ? right : left;
                if (node < 0 || node >= n_nodes) {
                    *bad = node;
                    return BAD_NODE;
                }
            }
            out[i * n_trees + t] = node;
        }
    }
    return GOOD;
}

PyDoc_STRVAR(leaves_doc,
"leaves(z, feature, threshold, missing_left, children, roots, active, out)\n"
"\n"
"Fill out[i, t] with the leaf that row i of z reaches in tree t, as ForestArrays._leaves_numpy.\n"
"\n"
"z: (n, width) float64; feature: (n_nodes,) intp; threshold: (n_nodes,) float64; missing_left:\n"
"(n_nodes,) bool; children: (2 * n_nodes,) intp; roots: (n_trees,) intp; active: (levels,) intp;\n"
"out: (n, n_trees) intp, written. All C-contiguous. Tree t descends one node per level s with\n"
"active[s] > t (going right iff x > threshold, or x is NaN and not missing_left), stopping early\n"
"at a leaf (a node that is both its children). Raises ValueError on a buffer of the wrong kind,\n"
"dimensions or length, and on a node or feature number out of range (out is then partly written).");

static PyObject *
leaves(PyObject *self, PyObject *args)
{
    PyObject *objs[8];
    static const char *names[8] = {"z", "feature", "threshold", "missing_left", "children", "roots", "active", "out"};
    static const char kinds[8] = {'f', 'i', 'f', 'b', 'i', 'i', 'i', 'i'};
    static const int ndims[8] = {2, 1, 1, 1, 1, 1, 1, 2};
    Py_buffer views[8];
    int held = 0;
    PyObject *result = NULL;

    if (!PyArg_ParseTuple(args, "OOOOOOOO:leaves", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7]))
        return NULL;
    for (; held < 8; held++)
        if (take(objs[held], &views[held], names[held], kinds[held], ndims[held], held == 7) < 0)
            goto done;

    {
        const Py_ssize_t n = views[0].shape[0], width = views[0].shape[1];
        const Py_ssize_t n_nodes = views[1].shape[0], n_trees = views[5].shape[0];
        const Py_ssize_t levels = views[6].shape[0];
        if (views[2].shape[0] != n_nodes || views[3].shape[0] != n_nodes || views[4].shape[0] != 2 * n_nodes) {
            PyErr_SetString(PyExc_ValueError, "feature, threshold, missing_left and children(/2) differ in length");
            goto done;
        }
        if (views[7].shape[0] != n || views[7].shape[1] != n_trees) {
            PyErr_Format(PyExc_ValueError, "out: expected shape (%zd, %zd), got (%zd, %zd)",
                         n, n_trees, views[7].shape[0], views[7].shape[1]);
            goto done;
        }
        const double *z = views[0].buf, *threshold = views[2].buf;
        const Py_ssize_t *feature = views[1].buf, *children = views[4].buf, *roots = views[5].buf;
        const Py_ssize_t *active = views[6].buf;
        const unsigned char *missing_left = views[3].buf;
        Py_ssize_t *out = views[7].buf;
        int bad;
        Py_ssize_t bad_number = 0;

        Py_BEGIN_ALLOW_THREADS
        bad = walk(z, n, width, feature, threshold, missing_left, children, n_nodes, roots, n_trees,
                   active, levels, out, &bad_number);
        Py_END_ALLOW_THREADS

        if (bad == BAD_NODE)
            PyErr_Format(PyExc_ValueError, "node number %zd out of range (%zd nodes)", bad_number, n_nodes);
        else if (bad == BAD_FEATURE)
            PyErr_Format(PyExc_ValueError, "feature number %zd out of range (z has %zd columns)", bad_number, width);
        else
            result = Py_NewRef(Py_None);
    }
done:
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return result;
}

static PyMethodDef methods[] = {
    {"leaves", leaves, METH_VARARGS, leaves_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pagesieve.classify._trees",
    "The compiled walk of a forest's rows to their leaves (see leaves()).", -1, methods,
};

PyMODINIT_FUNC
PyInit__trees(void)
{
    return PyModule_Create(&module);
}
