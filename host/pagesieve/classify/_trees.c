/* The leaves a forest's rows reach: the compiled walk of pagesieve.classify.classifier.ForestArrays.
 *
 * One function, leaves(), fills the (n, n_trees) matrix of leaf node numbers that
 * ForestArrays._leaves_numpy computes with numpy gathers, by descending each tree for each row:
 * eight walks at once without branches on the tests (walk_fast), or the plain loop (walk) where
 * that one does not apply or meets a number out of range. It only walks: Python sums the leaf
 * values and takes the sigmoid as before, so the probabilities are the numpy walk's to the bit.
 * Arrays come through the buffer protocol (no numpy headers needed to build); the walk runs without
 * the GIL, so the two halves of a large page (FOREST_SPLIT_ROWS) walk in two threads. Optional:
 * without a compiler the package installs without this module and classifier.py walks with numpy.
 *
 * Speed of the eight lanes against the plain loop alone (the walk before them), the shipped
 * model's 148 trees on the context rows of the first 60 pages of each dataset (calls of 1 to 300
 * consecutive rows, and each page in one call), both modules loaded in one process and called in
 * turn, the median of the per-round ratios over 21 or 31 rounds, four runs on this 2-core machine
 * shared with other work (load 1.7 to 3.5): ForestArrays._probability takes 0.78-0.88 of the time
 * for 1 row, 0.75-0.92 for 3, 0.85-0.92 for 10, 0.80-0.83 for 60, 0.78-0.86 for 300, 0.77-0.83
 * over the 480 pages and 0.79-0.81 over all 4,772 pages of the datasets (two runs); the leaves()
 * call alone 0.65-0.72, 0.71-0.81, 0.76-0.79, 0.77-0.83, 0.80-0.81, 0.78-0.82 and 0.83-0.92. The
 * leaves are the plain loop's on all 4,772 pages, as they are and with a fifth of the values NaN
 * (and tests/test_trees.py checks them against the numpy walk).
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

enum { GOOD, BAD_NODE, BAD_FEATURE, GIVE_UP };

/* The plain walk, the reference: tree by tree (its nodes stay in cache over the rows), row by row,
 * branching as the tests fall. Returns GOOD, or BAD_NODE / BAD_FEATURE with the number out of
 * range in *bad: the first one in this order. leaves() runs it where the fast walk (walk_fast,
 * below) is not used or gives up, so every error is found and reported by this loop. */
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

/* ---- The fast walk: eight walks at once, without branches on the tests. ----
 *
 * The plain walk spends most of its time on the branches it mispredicts (about one test in six
 * goes the way its node less often goes, and each such test waits for its value's two dependent
 * loads), and one walk's levels can only run one after the other. walk_fast() walks eight lanes
 * at once, each picking its child as children[2 * node + (x > threshold)] with no branch, so the
 * processor overlaps the eight chains of loads: eight rows of one tree (rows8), or for rows left
 * over, one row in eight trees (trees8). A group stops when none of its lanes moved during a level
 * (a leaf is its own child, and a node whose chosen child is itself would keep choosing it, as the
 * plain walk's node would) or after the tree's levels. Same leaves as walk(), to the bit: same
 * test, same NaN rule, same levels, and the leaf's break only skips levels that would not move.
 *
 * walk_fast() returns GOOD, or GIVE_UP at a node or feature number out of range (a leaf's
 * feature is never read by walk(), so an out-of-range one there is fine: the lane reads column 0
 * and stays). On GIVE_UP, leaves() runs walk() from the start, which finds and reports the first
 * bad number in its own order: the fast walk visits (row, tree) pairs in another order. */

#if defined(__GNUC__) || defined(__clang__)
#define UNLIKELY(c) __builtin_expect(!!(c), 0)
#define NOINLINE __attribute__((noinline))  /* the lanes keep their registers: not inlined into loops */
#else
#define UNLIKELY(c) (c)
#define NOINLINE
#endif

#define LANES 8
/* Rows whose values rows8 reads from one block, transposed (value c of lane k at c * LANES + k). */
#define BLOCK_ROWS 64
/* Wider rows than this walk with walk() (the block would not fit the caches; not met in practice). */
#define MAX_FAST_WIDTH 4096
/* From this many rows left over after the full groups of LANES rows, the rest go in one more
 * group of rows8, its empty lanes walking copies of the last row; fewer go row by row (trees8). */
#define PAD_FROM 6

typedef struct {
    const double *z;
    Py_ssize_t n, width;
    const Py_ssize_t *feature;
    const double *threshold;
    const unsigned char *missing_left;
    const Py_ssize_t *children;
    Py_ssize_t n_nodes;
    const Py_ssize_t *roots;
    Py_ssize_t n_trees;
    const Py_ssize_t *steps;  /* the levels that walk tree t (walk()'s steps) */
    Py_ssize_t *out;
} Forest;

#define FOREST_LOCALS(F)                                                                    \
    const Py_ssize_t *feature = (F)->feature, *children = (F)->children;                    \
    const double *threshold = (F)->threshold;                                               \
    const unsigned char *missing_left = (F)->missing_left;                                  \
    const size_t width = (size_t)(F)->width, n_nodes = (size_t)(F)->n_nodes;                 \
    (void)missing_left

/* One level of the lane at node `nd`, whose value of feature f_ is VALUE; NANS: whether it may
 * be NaN (else the test is left out). Sets `moved` if the lane moves. */
#define LANE_STEP(nd, VALUE, NANS)                                                          \
    do {                                                                                    \
        Py_ssize_t f_ = feature[nd];                                                        \
        if (UNLIKELY((size_t)f_ >= width)) {                                                \
            if (children[2 * (nd)] != (nd) || children[2 * (nd) + 1] != (nd))               \
                return GIVE_UP;                                                             \
            f_ = 0;                                                                         \
        }                                                                                   \
        const double x_ = (VALUE);                                                          \
        int right_ = x_ > threshold[nd];                                                    \
        if ((NANS) && UNLIKELY(isnan(x_)))                                                  \
            right_ = !missing_left[nd];                                                     \
        const Py_ssize_t next_ = children[2 * (nd) + right_];                               \
        if (UNLIKELY((size_t)next_ >= n_nodes))                                             \
            return GIVE_UP;                                                                 \
        moved |= next_ ^ (nd);                                                              \
        (nd) = next_;                                                                       \
    } while (0)

/* Rows i0.. (m of them, m <= LANES; lanes past m walk copies) of tree t, their values in zt. */
#define DEFINE_ROWS8(NAME, NANS)                                                            \
static NOINLINE int                                                                         \
NAME(const Forest *F, const double *zt, Py_ssize_t t, Py_ssize_t i0, int m)                 \
{                                                                                           \
    FOREST_LOCALS(F);                                                                       \
    const Py_ssize_t root = F->roots[t];                                                    \
    Py_ssize_t a = root, b = root, c = root, d = root, e = root, f = root, g = root, h = root; \
    for (Py_ssize_t s = F->steps[t]; s > 0; s--) {                                          \
        Py_ssize_t moved = 0;                                                               \
        LANE_STEP(a, zt[f_ * LANES + 0], NANS);                                             \
        LANE_STEP(b, zt[f_ * LANES + 1], NANS);                                             \
        LANE_STEP(c, zt[f_ * LANES + 2], NANS);                                             \
        LANE_STEP(d, zt[f_ * LANES + 3], NANS);                                             \
        LANE_STEP(e, zt[f_ * LANES + 4], NANS);                                             \
        LANE_STEP(f, zt[f_ * LANES + 5], NANS);                                             \
        LANE_STEP(g, zt[f_ * LANES + 6], NANS);                                             \
        LANE_STEP(h, zt[f_ * LANES + 7], NANS);                                             \
        if (!moved)                                                                         \
            break;                                                                          \
    }                                                                                       \
    const Py_ssize_t leaf[LANES] = {a, b, c, d, e, f, g, h};                                \
    Py_ssize_t *o = F->out + i0 * F->n_trees + t;                                           \
    for (int k = 0; k < m; k++)                                                             \
        o[k * F->n_trees] = leaf[k];                                                        \
    return GOOD;                                                                            \
}
DEFINE_ROWS8(rows8, 0)
DEFINE_ROWS8(rows8_nan, 1)

/* Row `row` in trees t0..t0+7 for `steps` levels (the fewest of the eight: steps fall with t);
 * node[] holds their roots and gets where they are. */
static NOINLINE int
trees8(const Forest *F, const double *row, Py_ssize_t steps, Py_ssize_t *node)
{
    FOREST_LOCALS(F);
    Py_ssize_t a = node[0], b = node[1], c = node[2], d = node[3], e = node[4], f = node[5], g = node[6], h = node[7];
    for (Py_ssize_t s = steps; s > 0; s--) {
        Py_ssize_t moved = 0;
        LANE_STEP(a, row[f_], 1);
        LANE_STEP(b, row[f_], 1);
        LANE_STEP(c, row[f_], 1);
        LANE_STEP(d, row[f_], 1);
        LANE_STEP(e, row[f_], 1);
        LANE_STEP(f, row[f_], 1);
        LANE_STEP(g, row[f_], 1);
        LANE_STEP(h, row[f_], 1);
        if (!moved)
            break;
    }
    node[0] = a, node[1] = b, node[2] = c, node[3] = d, node[4] = e, node[5] = f, node[6] = g, node[7] = h;
    return GOOD;
}

/* Row `row` from *node for `steps` more levels, one lane, as walk() goes (GIVE_UP for its errors). */
static int
one_lane(const Forest *F, const double *row, Py_ssize_t steps, Py_ssize_t *node)
{
    FOREST_LOCALS(F);
    Py_ssize_t nd = *node;
    for (Py_ssize_t s = steps; s > 0; s--) {
        const Py_ssize_t left = children[2 * nd], right = children[2 * nd + 1];
        if (left == nd && right == nd)
            break;
        const Py_ssize_t f_ = feature[nd];
        if (UNLIKELY((size_t)f_ >= width))
            return GIVE_UP;
        const double x = row[f_];
        nd = (x > threshold[nd] || (isnan(x) && !missing_left[nd])) ? right : left;
        if (UNLIKELY((size_t)nd >= n_nodes))
            return GIVE_UP;
    }
    *node = nd;
    return GOOD;
}

/* Rows [i0, i1), one at a time, in all trees, eight trees at once. */
static int
rows_one_by_one(const Forest *F, Py_ssize_t i0, Py_ssize_t i1)
{
    const Py_ssize_t n_trees = F->n_trees;
    for (Py_ssize_t i = i0; i < i1; i++) {
        const double *row = F->z + i * F->width;
        Py_ssize_t *out = F->out + i * n_trees;
        Py_ssize_t t = 0;
        for (; t + LANES <= n_trees; t += LANES) {
            Py_ssize_t node[LANES];
            memcpy(node, F->roots + t, sizeof(node));
            const Py_ssize_t fewest = F->steps[t + LANES - 1];
            if (trees8(F, row, fewest, node) != GOOD)
                return GIVE_UP;
            for (int k = 0; k < LANES; k++) {
                if (F->steps[t + k] > fewest && one_lane(F, row, F->steps[t + k] - fewest, &node[k]) != GOOD)
                    return GIVE_UP;
                out[t + k] = node[k];
            }
        }
        for (; t < n_trees; t++) {
            Py_ssize_t node = F->roots[t];
            if (one_lane(F, row, F->steps[t], &node) != GOOD)
                return GIVE_UP;
            out[t] = node;
        }
    }
    return GOOD;
}

/* All rows: groups of LANES rows block by block (each block's values transposed into zt, of
 * BLOCK_ROWS * width doubles), tree by tree within a block; then the rows left over. Needs
 * n > 0, n_trees > 0, 0 < width <= MAX_FAST_WIDTH, every root in range, and F->steps filled. */
static int
walk_fast(const Forest *F, double *zt)
{
    const Py_ssize_t n = F->n, width = F->width, n_trees = F->n_trees;
    const Py_ssize_t rest = n % LANES;
    const Py_ssize_t grouped = rest >= PAD_FROM ? n : n - rest;  /* rows walked by rows8 */
    for (Py_ssize_t b0 = 0; b0 < grouped; b0 += BLOCK_ROWS) {
        const Py_ssize_t b1 = b0 + BLOCK_ROWS < grouped ? b0 + BLOCK_ROWS : grouped;
        unsigned char has_nan[BLOCK_ROWS / LANES];  /* a NaN among a group's values */
        for (Py_ssize_t g = b0; g < b1; g += LANES) {
            const Py_ssize_t m = b1 - g < LANES ? b1 - g : LANES;
            const double *src = F->z + g * width;
            double *dst = zt + (g - b0) * width;
            int any = 0;
            for (Py_ssize_t c = 0; c < width; c++, dst += LANES)
                for (int k = 0; k < LANES; k++) {
                    const double v = src[(k < m ? k : m - 1) * width + c];
                    dst[k] = v;
                    any |= isnan(v) != 0;
                }
            has_nan[(g - b0) / LANES] = (unsigned char)any;
        }
        for (Py_ssize_t t = 0; t < n_trees; t++)
            for (Py_ssize_t g = b0; g < b1; g += LANES) {
                const double *values = zt + (g - b0) * width;
                const int m = b1 - g < LANES ? (int)(b1 - g) : LANES;
                if ((has_nan[(g - b0) / LANES] ? rows8_nan : rows8)(F, values, t, g, m) != GOOD)
                    return GIVE_UP;
            }
    }
    return rows_one_by_one(F, grouped, n);
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
        int bad = GIVE_UP;
        Py_ssize_t bad_number = 0;
        /* The fast walk's memory: each tree's levels, then the transposed block of rows. */
        Py_ssize_t *steps = NULL;
        int fast = n > 0 && n_trees > 0 && width > 0 && width <= MAX_FAST_WIDTH;
        for (Py_ssize_t t = 0; fast && t < n_trees; t++)
            fast = roots[t] >= 0 && roots[t] < n_nodes;  /* else walk() reports the first bad root */
        if (fast) {
            const size_t rows = (size_t)(n < BLOCK_ROWS ? (n + LANES - 1) / LANES * LANES : BLOCK_ROWS);
            steps = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)n_trees + sizeof(double) * rows * (size_t)width);
            fast = steps != NULL;  /* no memory: walk() needs none */
        }

        Py_BEGIN_ALLOW_THREADS
        if (fast) {
            /* steps[t] = #{s : active[s] > t}, as walk() counts it: +1 over t < active[s] */
            memset(steps, 0, sizeof(Py_ssize_t) * (size_t)n_trees);
            for (Py_ssize_t s = 0; s < levels; s++)
                if (active[s] > 0)
                    steps[active[s] < n_trees ? active[s] - 1 : n_trees - 1] += 1;
            for (Py_ssize_t t = n_trees - 2; t >= 0; t--)
                steps[t] += steps[t + 1];
            const Forest forest = {z, n, width, feature, threshold, missing_left, children, n_nodes,
                                   roots, n_trees, steps, out};
            bad = walk_fast(&forest, (double *)(steps + n_trees));
        }
        if (bad != GOOD)
            bad = walk(z, n, width, feature, threshold, missing_left, children, n_nodes, roots, n_trees,
                       active, levels, out, &bad_number);
        Py_END_ALLOW_THREADS
        PyMem_Free(steps);

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
