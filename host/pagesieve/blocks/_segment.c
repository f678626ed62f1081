/* The compiled twin of pagesieve.blocks.segment.segment: one walk over a page's libxml2 tree that
 * gives the same Block list as the Python walk, or None where it cannot be sure to (then
 * segment.py walks in Python, which stays the reference).
 *
 * Why: the Python walk asks lxml for a proxy, .tag, .text, .tail and getparent() of every node it
 * meets; for a page parsed from HTML the block elements already have live proxies
 * (pagesieve.page.model.Page.proxies), so reading the nodes' own fields in C skips all of that and
 * the str.split() of every piece. Figures and the checks that give the same answers: segment.py's
 * _load_compiled docstring and models/README.md ("Speed", "Compiled segmentation").
 *
 * What is read, and from where:
 *  - libxml2's xmlNode (include/libxml/tree.h of libxml2 2.x: the "common part" every node starts
 *    with, then ns and content). Only the fields up to `content` are declared here, so the module
 *    builds with the Python headers alone; pointers to real nodes are only read, never allocated.
 *  - lxml's _Element object (lxml.etree.h, "struct LxmlElement": PyObject_HEAD, _doc, _c_node,
 *    _tag), to go from the top element's proxy to its node; and libxml2's `_private` of a node,
 *    which lxml points at the node's live proxy (lxml proxy.pxi, getProxy). segment.py checks both
 *    on a parsed document at import, with lxml's _Element.__basicsize__, before using this module.
 *  - .text and .tail as lxml gives them (lxml apihelpers.pxi, _collectText): the run of TEXT and
 *    CDATA siblings starting at the first child (text) or at the next sibling (tail), concatenated,
 *    decoded from UTF-8; a run of empty nodes gives "" and no run None, both skipped by the walk.
 *    lxml skips XInclude marks inside a run; this walk gives up on them instead.
 *  - Python's str.split() white space (Py_UNICODE_ISSPACE: ASCII \t\n\v\f\r, \x1c-\x1f, space, and
 *    the 19 others of space_len(); the same set in Unicode 14.0, 15.0 and 15.1 of Python 3.11-3.13),
 *    read in the UTF-8 bytes; tests/test_segment_compiled.py compares it with str.isspace for every
 *    code point, and collapse() with " ".join(text.split()).
 *
 * The Block objects are made without calling the dataclass __init__: the instance comes from the
 * type's tp_alloc and each slot is written at its offset, which segment.py finds at import by
 * placing known objects in a Block and looking for them (slot_offsets) and checks by comparing a
 * whole segmentation with the Python one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* libxml2's node types met here (tree.h, xmlElementType). */
enum { X_ELEMENT = 1, X_TEXT = 3, X_CDATA = 4, X_PI = 7, X_COMMENT = 8 };

typedef struct xnode {
    void *_private;
    int type;
    const unsigned char *name;
    struct xnode *children, *last, *parent, *next, *prev;
    void *doc;
    void *ns;
    unsigned char *content;
} xnode;

typedef struct {
    PyObject_HEAD
    void *_doc;
    xnode *_c_node;
    PyObject *_tag;
} lx_element;

/* The Block fields, in the order segment.py passes their slot offsets to configure(). */
enum {
    F_ELEMENT, F_INDEX, F_PARENT, F_DEPTH, F_PIECES, F_CHARS, F_LINK_CHARS, F_LINKS, F_IMAGES,
    F_INLINE_TAGS, F_CHILDREN, F_SUB_CHARS, F_SUB_LINK_CHARS, F_SUB_TAGS, F_SUB_LINKS, F_SUB_IMAGES,
    F_PRE, F_TEXT, F_SIGNATURE, F_CLASS, F_COMMENT_MARK, F_NODE_ID, N_FIELDS
};

static PyObject *block_type = NULL;     /* pagesieve.blocks.segment.Block, set by configure() */
static Py_ssize_t offsets[N_FIELDS];

/* ---- white space and collapsing ---- */

/* The bytes of the white space character that starts at s[i] (0 if none) in valid UTF-8, which the
 * walk has checked by decoding it first. All 29 are ASCII or start with C2, E1, E2 or E3: U+0085
 * C2 85, U+00A0 C2 A0, U+1680 E1 9A 80, U+2000-U+200A E2 80 80-8A, U+2028 E2 80 A8, U+2029
 * E2 80 A9, U+202F E2 80 AF, U+205F E2 81 9F, U+3000 E3 80 80. Read at a continuation byte
 * (80-BF) it gives 0, so a word may be stepped through byte by byte. */
static inline int
space_len(const unsigned char *s, Py_ssize_t i)
{
    unsigned char b = s[i];
    if (b < 0x80)
        return (b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x20);
    switch (b) {
    case 0xc2:
        return (s[i + 1] == 0x85 || s[i + 1] == 0xa0) ? 2 : 0;
    case 0xe1:
        return (s[i + 1] == 0x9a && s[i + 2] == 0x80) ? 3 : 0;
    case 0xe2:
        if (s[i + 1] == 0x80) {
            unsigned char c = s[i + 2];
            return (c <= 0x8a || c == 0xa8 || c == 0xa9 || c == 0xaf) ? 3 : 0;
        }
        return (s[i + 1] == 0x81 && s[i + 2] == 0x9f) ? 3 : 0;
    case 0xe3:
        return (s[i + 1] == 0x80 && s[i + 2] == 0x80) ? 3 : 0;
    }
    return 0;
}

/* " ".join(text.split()) of the valid UTF-8 text s[0:n], written to `out` (room for n bytes).
 * Returns its length in bytes; *chars is its length in code points (the block's character count,
 * len(" ".join(text.split()))), *lead and *trail whether s starts and ends with white space
 * (block_text joins pieces with them). */
static Py_ssize_t
collapse(const unsigned char *s, Py_ssize_t n, unsigned char *out, Py_ssize_t *chars, int *lead, int *trail)
{
    Py_ssize_t i = 0, o = 0, cps = 0;
    int gap = 0, k;
    *lead = n > 0 && space_len(s, 0) > 0;
    while (i < n) {
        while (i < n && (k = space_len(s, i)) > 0) {
            i += k;
            gap = 1;
        }
        if (i >= n)
            break;
        if (o > 0) {
            out[o++] = ' ';
            cps++;
        }
        gap = 0;
        Py_ssize_t j = i;
        while (j < n && space_len(s, j) == 0) {
            cps += (s[j] & 0xc0) != 0x80;   /* one lead byte per code point */
            j++;
        }
        memcpy(out + o, s + i, (size_t)(j - i));
        o += j - i;
        i = j;
    }
    *trail = gap;
    *chars = cps;
    return o;
}

/* ---- the walk's storage ---- */

typedef struct {
    PyObject *element;      /* new reference */
    Py_ssize_t parent, depth, n_pieces, n_children, bytes;
    Py_ssize_t chars, link_chars, links, images, inline_tags;
    Py_ssize_t sub_chars, sub_link_chars, sub_tags, sub_links, sub_images;
    int pre;
} brec;

typedef struct {
    Py_ssize_t block;
    const unsigned char *raw;   /* the node's content, or the run joined in w->owned; not held */
    Py_ssize_t len;
    Py_ssize_t coff, clen;      /* its collapse() in w->coll */
    int lead, trail;
    PyObject *text;             /* new reference */
} prec;

typedef struct {
    xnode *node;
    Py_ssize_t block;
    int in_link, in_pre;
} frame;

typedef struct {
    brec *blocks; Py_ssize_t n_blocks, cap_blocks;
    prec *pieces; Py_ssize_t n_pieces, cap_pieces;
    frame *stack; Py_ssize_t sp, cap_stack;
    unsigned char *coll; Py_ssize_t n_coll, cap_coll;     /* every piece collapsed, end to end */
    unsigned char **owned; Py_ssize_t n_owned, cap_owned;  /* runs of several nodes, joined */
    Py_ssize_t max_block_bytes;  /* the most UTF-8 a block's pieces hold (block_text's room) */
    PyObject *names;        /* tuple of bytes: the block tags */
    /* tag kinds by name pointer (libxml2 keeps one copy of each name per document dictionary);
     * filled as names are met, emptied for each call */
    const unsigned char *cache_name[128];
    int cache_kind[128];
} walk;

enum { K_INLINE = 0, K_BLOCK = 1, K_PRE = 2, K_A = 4, K_IMG = 8, K_BAD = 16 };

/* 0 = ok, -1 = Python error set, 1 = give up (let Python walk). */
#define GROW(ptr, n, cap, type) \
    do { if ((n) == (cap)) { Py_ssize_t c_ = (cap) ? 2 * (cap) : 64; \
        type *p_ = PyMem_Realloc((ptr), (size_t)c_ * sizeof(type)); \
        if (!p_) { PyErr_NoMemory(); return -1; } (ptr) = p_; (cap) = c_; } } while (0)

static int
tag_kind(walk *w, const unsigned char *name)
{
    size_t h = (size_t)(((unsigned long long)(size_t)name * 0x9E3779B97F4A7C15ull) >> 57);
    if (w->cache_name[h] == name)
        return w->cache_kind[h];
    int kind = K_INLINE;
    for (const unsigned char *p = name; *p; p++)
        if (*p >= 0x80)
            kind = K_BAD;   /* lxml decodes the name for .tag; leave anything but ASCII to it */
    if (kind != K_BAD) {
        const char *s = (const char *)name;
        Py_ssize_t n = PyTuple_Size(w->names);
        for (Py_ssize_t i = 0; i < n; i++) {
            const char *b = PyBytes_AsString(PyTuple_GetItem(w->names, i));
            if (b && strcmp(b, s) == 0) { kind = K_BLOCK; break; }
        }
        if (strcmp(s, "pre") == 0) kind |= K_PRE;
        else if (strcmp(s, "a") == 0) kind |= K_A;
        else if (strcmp(s, "img") == 0) kind |= K_IMG;
    }
    w->cache_name[h] = name;
    w->cache_kind[h] = kind;
    return kind;
}

/* Room for `more` bytes at the end of the collapsed pieces. */
static int
coll_room(walk *w, Py_ssize_t more)
{
    if (w->n_coll + more <= w->cap_coll)
        return 0;
    Py_ssize_t c = w->cap_coll ? w->cap_coll : 4096;
    while (c < w->n_coll + more)
        c *= 2;
    unsigned char *p = PyMem_Realloc(w->coll, (size_t)c);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    w->coll = p;
    w->cap_coll = c;
    return 0;
}

/* The run of text nodes from `node` (lxml's .text of its parent or .tail of its previous
 * sibling) as a piece of block `block`; nothing when the run is empty. */
static int
add_run(walk *w, xnode *node, Py_ssize_t block, int in_link)
{
    if (!node || (node->type != X_TEXT && node->type != X_CDATA))
        return 0;
    if (!node->content)
        return 1;
    const unsigned char *raw = node->content;
    Py_ssize_t len = (Py_ssize_t)strlen((const char *)raw);
    xnode *more = node->next;
    if (more && (more->type == X_TEXT || more->type == X_CDATA)) {
        /* several nodes (CDATA beside text, text left beside text by a change of the tree): lxml
         * joins their bytes before decoding, so the walk does */
        for (xnode *m = more; m && (m->type == X_TEXT || m->type == X_CDATA); m = m->next) {
            if (!m->content)
                return 1;
            len += (Py_ssize_t)strlen((const char *)m->content);
        }
        GROW(w->owned, w->n_owned, w->cap_owned, unsigned char *);
        unsigned char *joined = PyMem_Malloc((size_t)(len ? len : 1));
        if (!joined) {
            PyErr_NoMemory();
            return -1;
        }
        w->owned[w->n_owned++] = joined;
        Py_ssize_t o = 0;
        for (xnode *m = node; m && (m->type == X_TEXT || m->type == X_CDATA); m = m->next) {
            size_t k = strlen((const char *)m->content);
            memcpy(joined + o, m->content, k);
            o += (Py_ssize_t)k;
        }
        raw = joined;
    }
    if (len == 0)
        return 0;
    GROW(w->pieces, w->n_pieces, w->cap_pieces, prec);
    if (coll_room(w, len) < 0)
        return -1;
    PyObject *text = PyUnicode_DecodeUTF8((const char *)raw, len, NULL);
    if (!text) {
        PyErr_Clear();      /* lxml would raise as it decodes; the Python walk will */
        return 1;
    }
    prec *p = &w->pieces[w->n_pieces++];
    Py_ssize_t n;
    p->block = block; p->raw = raw; p->len = len; p->text = text; p->coff = w->n_coll;
    p->clen = collapse(raw, len, w->coll + w->n_coll, &n, &p->lead, &p->trail);
    w->n_coll += p->clen;
    brec *b = &w->blocks[block];
    b->n_pieces++;
    b->bytes += len;
    if (b->bytes > w->max_block_bytes)
        w->max_block_bytes = b->bytes;
    b->chars += n;
    if (in_link)
        b->link_chars += n;
    return 0;
}

static int
push(walk *w, xnode *node, Py_ssize_t block, int in_link, int in_pre)
{
    GROW(w->stack, w->sp, w->cap_stack, frame);
    frame *f = &w->stack[w->sp++];
    f->node = node; f->block = block; f->in_link = in_link; f->in_pre = in_pre;
    return 0;
}

static int
new_block(walk *w, PyObject *element, Py_ssize_t parent, Py_ssize_t depth, int pre)
{
    GROW(w->blocks, w->n_blocks, w->cap_blocks, brec);
    brec *b = &w->blocks[w->n_blocks++];
    memset(b, 0, sizeof(*b));
    Py_INCREF(element);
    b->element = element;
    b->parent = parent; b->depth = depth; b->pre = pre;
    if (parent >= 0)
        w->blocks[parent].n_children++;
    return 0;
}

/* The walk of segment.py's loop, node for node: elements, comments and processing instructions in
 * document order under `top`; each element's text goes to its block, each node's tail to the block
 * of its parent. */
static int
walk_tree(walk *w, PyObject *top_obj, xnode *top, Py_ssize_t first_depth, int top_pre)
{
    int r;
    if ((r = new_block(w, top_obj, -1, first_depth, top_pre)) != 0) return r;
    if ((r = push(w, top, 0, 0, top_pre)) != 0) return r;
    if ((r = add_run(w, top->children, 0, 0)) != 0) return r;
    xnode *cur = top->children;
    for (;;) {
        while (cur && (cur->type == X_TEXT || cur->type == X_CDATA))
            cur = cur->next;
        if (!cur) {
            if (w->sp == 1)
                return 0;
            xnode *left = w->stack[--w->sp].node;
            frame *owner = &w->stack[w->sp - 1];
            if ((r = add_run(w, left->next, owner->block, owner->in_link)) != 0) return r;
            cur = left->next;
            continue;
        }
        frame ctx = w->stack[w->sp - 1];
        if (cur->type == X_COMMENT || cur->type == X_PI) {
            if (cur->children)
                return 1;
            if ((r = add_run(w, cur->next, ctx.block, ctx.in_link)) != 0) return r;
            cur = cur->next;
            continue;
        }
        if (cur->type != X_ELEMENT || cur->ns != NULL || cur->name == NULL)
            return 1;       /* entity references, XInclude marks, namespaced names: Python's */
        int kind = tag_kind(w, cur->name);
        if (kind & K_BAD)
            return 1;
        Py_ssize_t block = ctx.block;
        int in_link = ctx.in_link, in_pre = ctx.in_pre;
        if (kind & K_PRE)
            in_pre = 1;
        if (kind & K_BLOCK) {
            lx_element *proxy = (lx_element *)cur->_private;
            if (proxy == NULL || proxy->_c_node != cur)
                return 1;   /* no live proxy: Python's walk makes one */
            if ((r = new_block(w, (PyObject *)proxy, block, first_depth + w->sp, in_pre)) != 0) return r;
            block = w->n_blocks - 1;
        } else {
            brec *b = &w->blocks[block];
            b->inline_tags++;
            if (kind & K_A) {
                b->links++;
                in_link = 1;
            } else if (kind & K_IMG) {
                b->images++;
            }
        }
        if ((r = push(w, cur, block, in_link, in_pre)) != 0) return r;
        if ((r = add_run(w, cur->children, block, in_link)) != 0) return r;
        cur = cur->children;
    }
}

/* " ".join("".join(pieces).split()), or "".join(pieces) inside <pre>, of one block whose pieces
 * are w->pieces[order[0..n]], from the pieces collapsed one by one: two pieces' words are one word
 * where neither has white space at the join. `out` has room for the block's bytes. */
static PyObject *
block_text(walk *w, const Py_ssize_t *order, Py_ssize_t n, int pre, unsigned char *out)
{
    Py_ssize_t o = 0;
    int gap = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        prec *p = &w->pieces[order[k]];
        if (pre) {
            memcpy(out + o, p->raw, (size_t)p->len);
            o += p->len;
        } else if (p->clen == 0) {
            gap = 1;        /* white space alone */
        } else {
            if (o > 0 && (gap || p->lead))
                out[o++] = ' ';
            memcpy(out + o, w->coll + p->coff, (size_t)p->clen);
            o += p->clen;
            gap = p->trail;
        }
    }
    return PyUnicode_DecodeUTF8((const char *)out, o, NULL);
}

static int
set_slot(PyObject *obj, int field, PyObject *value)
{
    if (!value)
        return -1;
    *(PyObject **)((char *)obj + offsets[field]) = value;   /* steals `value` */
    return 0;
}

static int
set_int(PyObject *obj, int field, Py_ssize_t v)
{
    return set_slot(obj, field, PyLong_FromSsize_t(v));
}

static int
set_ref(PyObject *obj, int field, PyObject *v)
{
    Py_INCREF(v);
    return set_slot(obj, field, v);
}

/* The Block objects of a finished walk, as a list; NULL with an error set. */
static PyObject *
make_blocks(walk *w, PyObject *positions, int fill_text)
{
    Py_ssize_t nb = w->n_blocks, np = w->n_pieces;
    /* subtree totals, children before parents (children have larger indices) */
    for (Py_ssize_t i = nb - 1; i >= 0; i--) {
        brec *b = &w->blocks[i];
        b->sub_chars += b->chars;
        b->sub_link_chars += b->link_chars;
        b->sub_tags += b->inline_tags + 1;
        b->sub_links += b->links;
        b->sub_images += b->images;
        if (b->parent >= 0) {
            brec *p = &w->blocks[b->parent];
            p->sub_chars += b->sub_chars;
            p->sub_link_chars += b->sub_link_chars;
            p->sub_tags += b->sub_tags;
            p->sub_links += b->sub_links;
            p->sub_images += b->sub_images;
        }
    }
    /* pieces grouped by block, in order (a counting sort) */
    Py_ssize_t *start = PyMem_Calloc((size_t)nb + 1, sizeof(Py_ssize_t));
    Py_ssize_t *order = PyMem_Malloc((size_t)(np ? np : 1) * sizeof(Py_ssize_t));
    Py_ssize_t *fill = PyMem_Calloc((size_t)nb + 1, sizeof(Py_ssize_t));
    unsigned char *out = PyMem_Malloc((size_t)(w->max_block_bytes ? w->max_block_bytes : 1));
    PyObject *result = NULL, *allocated = NULL;
    if (!start || !order || !fill || !out) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nb; i++)
        start[i + 1] = start[i] + w->blocks[i].n_pieces;
    for (Py_ssize_t k = 0; k < np; k++) {
        Py_ssize_t b = w->pieces[k].block;
        order[start[b] + fill[b]++] = k;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot((PyTypeObject *)block_type, Py_tp_alloc);
    result = PyList_New(nb);
    if (!result)
        goto done;
    for (Py_ssize_t i = 0; i < nb; i++) {
        brec *b = &w->blocks[i];
        PyObject *obj = alloc((PyTypeObject *)block_type, 0);
        if (!obj)
            goto fail;
        PyList_SetItem(result, i, obj);     /* the list owns it; its NULL slots are fine to free */
        PyObject *pieces = PyList_New(b->n_pieces);
        if (set_slot(obj, F_PIECES, pieces) < 0)
            goto fail;
        for (Py_ssize_t k = 0; k < b->n_pieces; k++) {
            prec *p = &w->pieces[order[start[i] + k]];
            Py_INCREF(p->text);
            PyList_SetItem(pieces, k, p->text);
        }
        PyObject *children = PyList_New(b->n_children);
        if (set_slot(obj, F_CHILDREN, children) < 0)
            goto fail;
        PyObject *text = Py_None;
        if (fill_text) {
            text = block_text(w, order + start[i], b->n_pieces, b->pre, out);
            if (!text)
                goto fail;
        } else {
            Py_INCREF(text);
        }
        PyObject *node_id = Py_None;
        if (positions != Py_None) {
            PyObject *found = PyDict_GetItemWithError(positions, b->element);
            if (!found && PyErr_Occurred()) {
                Py_DECREF(text);
                goto fail;
            }
            node_id = found ? found : PyLong_FromLong(-1);
            if (found)
                Py_INCREF(found);
            if (!node_id) {
                Py_DECREF(text);
                goto fail;
            }
        } else {
            Py_INCREF(node_id);
        }
        if (set_slot(obj, F_TEXT, text) < 0 || set_slot(obj, F_NODE_ID, node_id) < 0
            || set_ref(obj, F_ELEMENT, b->element) < 0 || set_int(obj, F_INDEX, i) < 0
            || set_int(obj, F_PARENT, b->parent) < 0 || set_int(obj, F_DEPTH, b->depth) < 0
            || set_int(obj, F_CHARS, b->chars) < 0 || set_int(obj, F_LINK_CHARS, b->link_chars) < 0
            || set_int(obj, F_LINKS, b->links) < 0 || set_int(obj, F_IMAGES, b->images) < 0
            || set_int(obj, F_INLINE_TAGS, b->inline_tags) < 0
            || set_int(obj, F_SUB_CHARS, b->sub_chars) < 0
            || set_int(obj, F_SUB_LINK_CHARS, b->sub_link_chars) < 0
            || set_int(obj, F_SUB_TAGS, b->sub_tags) < 0 || set_int(obj, F_SUB_LINKS, b->sub_links) < 0
            || set_int(obj, F_SUB_IMAGES, b->sub_images) < 0
            || set_ref(obj, F_PRE, b->pre ? Py_True : Py_False) < 0
            || set_ref(obj, F_SIGNATURE, Py_None) < 0 || set_ref(obj, F_CLASS, Py_False) < 0
            || set_ref(obj, F_COMMENT_MARK, Py_None) < 0)
            goto fail;
        b->n_children = 0;  /* counted again below as the lists fill */
    }
    for (Py_ssize_t i = 1; i < nb; i++) {
        Py_ssize_t parent = w->blocks[i].parent;
        PyObject *children = *(PyObject **)((char *)PyList_GetItem(result, parent) + offsets[F_CHILDREN]);
        PyObject *index = PyLong_FromSsize_t(i);
        if (!index)
            goto fail;
        PyList_SetItem(children, w->blocks[parent].n_children++, index);
    }
    goto done;
fail:
    allocated = result;
    result = NULL;
done:
    Py_XDECREF(allocated);
    PyMem_Free(start);
    PyMem_Free(order);
    PyMem_Free(fill);
    PyMem_Free(out);
    return result;
}

static void
walk_free(walk *w)
{
    for (Py_ssize_t i = 0; i < w->n_blocks; i++)
        Py_DECREF(w->blocks[i].element);
    for (Py_ssize_t k = 0; k < w->n_pieces; k++)
        Py_DECREF(w->pieces[k].text);
    PyMem_Free(w->blocks);
    PyMem_Free(w->pieces);
    PyMem_Free(w->stack);
    for (Py_ssize_t k = 0; k < w->n_owned; k++)
        PyMem_Free(w->owned[k]);
    PyMem_Free(w->owned);
    PyMem_Free(w->coll);
}

static PyObject *
seg_segment(PyObject *self, PyObject *args)
{
    PyObject *top_obj, *names, *positions;
    Py_ssize_t first_depth;
    int top_pre, fill_text;
    if (!PyArg_ParseTuple(args, "OO!nOpp", &top_obj, &PyTuple_Type, &names, &first_depth, &positions,
                          &top_pre, &fill_text))
        return NULL;
    if (block_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure() has not been called");
        return NULL;
    }
    if (positions != Py_None && !PyDict_Check(positions)) {
        PyErr_SetString(PyExc_TypeError, "positions: a dict or None");
        return NULL;
    }
    /* the caller passes an lxml _Element (segment.py checks it); its node must point back at it */
    xnode *top = ((lx_element *)top_obj)->_c_node;
    if (top == NULL || top->type != X_ELEMENT || top->_private != (void *)top_obj)
        Py_RETURN_NONE;
    walk w;
    memset(&w, 0, sizeof(w));
    w.names = names;
    PyObject *result;
    int r = walk_tree(&w, top_obj, top, first_depth, top_pre);
    if (r < 0)
        result = NULL;
    else if (r > 0)
        result = Py_NewRef(Py_None);
    else
        result = make_blocks(&w, positions, fill_text);
    walk_free(&w);
    return result;
}

static PyObject *
seg_configure(PyObject *self, PyObject *args)
{
    PyObject *type, *offs;
    if (!PyArg_ParseTuple(args, "OO!", &type, &PyTuple_Type, &offs))
        return NULL;
    if (!PyType_Check(type) || PyTuple_Size(offs) != N_FIELDS) {
        PyErr_SetString(PyExc_ValueError, "configure(Block, offsets of its 22 fields)");
        return NULL;
    }
    for (int i = 0; i < N_FIELDS; i++) {
        Py_ssize_t o = PyLong_AsSsize_t(PyTuple_GetItem(offs, i));
        if (o == -1 && PyErr_Occurred())
            return NULL;
        if (o < (Py_ssize_t)sizeof(PyObject) || o % (Py_ssize_t)sizeof(void *)) {
            PyErr_Format(PyExc_ValueError, "offset %zd of field %d", o, i);
            return NULL;
        }
        offsets[i] = o;
    }
    PyObject *old = block_type;
    Py_INCREF(type);
    block_type = type;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

/* Where, in the first `size` bytes of `obj`, each object of `values` is held: the offsets of a
 * Block's slots, found by filling them with known objects (segment.py). -1 where not found. */
static PyObject *
seg_slot_offsets(PyObject *self, PyObject *args)
{
    PyObject *obj, *values;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "OO!n", &obj, &PyTuple_Type, &values, &size))
        return NULL;
    Py_ssize_t n = PyTuple_Size(values);
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyTuple_GetItem(values, i);
        Py_ssize_t found = -1;
        for (Py_ssize_t o = sizeof(PyObject); o + (Py_ssize_t)sizeof(void *) <= size; o += sizeof(void *))
            if (*(PyObject **)((char *)obj + o) == v) { found = o; break; }
        PyObject *x = PyLong_FromSsize_t(found);
        if (!x) { Py_DECREF(out); return NULL; }
        PyTuple_SetItem(out, i, x);
    }
    return out;
}

/* (node->_private is element, node->type, node->name, node->ns is NULL) of an lxml element: the
 * import-time check of the _Element layout this module reads. */
static PyObject *
seg_node_info(PyObject *self, PyObject *element)
{
    xnode *node = ((lx_element *)element)->_c_node;
    if (node == NULL)
        Py_RETURN_NONE;
    return Py_BuildValue("(Niy#N)", PyBool_FromLong(node->_private == (void *)element), node->type,
                         node->name ? (const char *)node->name : "",
                         (Py_ssize_t)(node->name ? strlen((const char *)node->name) : 0),
                         PyBool_FromLong(node->ns == NULL));
}

/* Every code point whose UTF-8 space_len() takes for white space, as a list (the tests compare
 * it with str.isspace for all code points). */
static PyObject *
seg_spaces(PyObject *self, PyObject *unused)
{
    PyObject *out = PyList_New(0);
    if (!out)
        return NULL;
    for (unsigned long c = 0; c < 0x110000; c++) {
        unsigned char u[4];
        int n;
        if (c < 0x80) { u[0] = (unsigned char)c; n = 1; }
        else if (c < 0x800) { u[0] = 0xc0 | (c >> 6); u[1] = 0x80 | (c & 0x3f); n = 2; }
        else if (c < 0x10000) { u[0] = 0xe0 | (c >> 12); u[1] = 0x80 | ((c >> 6) & 0x3f); u[2] = 0x80 | (c & 0x3f); n = 3; }
        else {
            u[0] = 0xf0 | (c >> 18); u[1] = 0x80 | ((c >> 12) & 0x3f); u[2] = 0x80 | ((c >> 6) & 0x3f);
            u[3] = 0x80 | (c & 0x3f); n = 4;
        }
        int k = space_len(u, 0);
        if (k != 0 && k != n) {
            Py_DECREF(out);
            return PyErr_Format(PyExc_AssertionError, "space_len gives %d bytes for U+%04lX", k, c);
        }
        if (k) {
            PyObject *x = PyLong_FromUnsignedLong(c);
            if (!x || PyList_Append(out, x) < 0) { Py_XDECREF(x); Py_DECREF(out); return NULL; }
            Py_DECREF(x);
        }
    }
    return out;
}

/* collapse() of a str, for the tests: (" ".join(text.split()), its length, starts with white
 * space, ends with white space). */
static PyObject *
seg_collapse(PyObject *self, PyObject *text)
{
    PyObject *b = PyUnicode_AsUTF8String(text);
    if (!b)
        return NULL;
    Py_ssize_t n = PyBytes_Size(b), chars;
    int lead, trail;
    unsigned char *out = PyMem_Malloc((size_t)(n ? n : 1));
    if (!out) {
        Py_DECREF(b);
        return PyErr_NoMemory();
    }
    Py_ssize_t o = collapse((const unsigned char *)PyBytes_AsString(b), n, out, &chars, &lead, &trail);
    PyObject *result = Py_BuildValue("(s#nNN)", (const char *)out, o, chars, PyBool_FromLong(lead), PyBool_FromLong(trail));
    PyMem_Free(out);
    Py_DECREF(b);
    return result;
}

static PyMethodDef methods[] = {
    {"segment", seg_segment, METH_VARARGS,
     "segment(top, block_names, first_depth, positions, top_pre, fill_text) -> list[Block] | None"},
    {"configure", seg_configure, METH_VARARGS, "configure(Block, slot offsets)"},
    {"slot_offsets", seg_slot_offsets, METH_VARARGS, "slot_offsets(obj, values, size) -> offsets"},
    {"node_info", seg_node_info, METH_O, "node_info(element) -> (private is element, type, name, no ns)"},
    {"spaces", seg_spaces, METH_NOARGS, "spaces() -> the code points taken for white space"},
    {"collapse", seg_collapse, METH_O, "collapse(text) -> (' '.join(text.split()), its length, lead space, trail space)"},
    {NULL, NULL, 0, NULL},
};

/* Initialised in two phases (PEP 489); the state it keeps is the Block layout of configure(),
 * which is the same for every interpreter that imports segment.py. */
static PyModuleDef_Slot slots[] = {{0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pagesieve.blocks._segment",
    .m_doc = "The compiled walk of pagesieve.blocks.segment.segment (see there and _segment.c).",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC
PyInit__segment(void)
{
    return PyModuleDef_Init(&module);
}
