#include "analysis/trace/callsites.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/names.h"
#include "analysis/base/window.h"
#include "common/hashtab.h"
#include "common/log.h"
#include "common/vec.h"
#include "model/nesting.h"

/* What a frame, a path of frames or a module path adds up to. */
typedef struct acc {
    uint64_t calls, launches;
    gs_ns gpu_total, gpu_self, cpu_total, cpu_self;
} acc;

/* A node of a tree keyed by path: (parent node, name). The call tree and the module tree. */
typedef struct node {
    gs_str name;
    uint32_t parent;
    uint16_t depth;
    acc a;
} node;

typedef struct node_key {
    uint32_t key; /* node_hash(parent, name) */
    uint32_t node;
} node_key;

typedef struct node_set {
    GS_VEC(node) nodes;
    gs_hashtab index;
} node_set;

/* The state of one build: the summary's names, and what the traces add to them. */
typedef struct gs_callsites_building {
    gs_callsites *out;
    GS_VEC(acc) flat;       /* by the summary's name id */
    GS_VEC(uint32_t) onstack; /* by name id: how often the name is on the current stack */
    GS_VEC(uint64_t) stamp;   /* by name id: the last GPU activity charged to the name */
    uint64_t seq;
    node_set tree, modules;
} builder;

static uint32_t node_hash(uint32_t parent, gs_str name)
{
    uint64_t k = ((uint64_t)parent << 32 | name) * 0x9E3779B97F4A7C15ULL;
    uint32_t h = (uint32_t)(k >> 32);
    return h ? h : 1; /* 0 marks an empty slot */
}

/* The node for `name` under `parent` (GS_NONE: a root), added when new; GS_NONE out of memory. */
static uint32_t node_get(node_set *s, uint32_t parent, gs_str name)
{
    uint32_t key = node_hash(parent, name);
    gs_hashpos pos;
    for (node_key *e = gs_hashtab_find(&s->index, key, &pos); e;
         e = gs_hashtab_next(&s->index, &pos))
        if (s->nodes.v[e->node].parent == parent && s->nodes.v[e->node].name == name)
            return e->node;
    uint16_t depth = 0;
    if (parent != GS_NONE) {
        uint16_t d = s->nodes.v[parent].depth;
        depth = d == UINT16_MAX ? d : (uint16_t)(d + 1);
    }
    node *n = GS_VEC_PUSH(&s->nodes);
    node_key *e = n ? gs_hashtab_add(&s->index, key) : NULL;
    if (!e) {
        s->nodes.n -= n != NULL;
        return GS_NONE;
    }
    n->name = name;
    n->parent = parent;
    n->depth = depth;
    e->node = (uint32_t)(s->nodes.n - 1);
    return e->node;
}

static void node_set_free(node_set *s)
{
    GS_VEC_FREE(&s->nodes);
    gs_hashtab_free(&s->index);
}

/* Grows the per-name arrays to the summary's names. */
static int grow_names(builder *b)
{
    size_t need = b->out->names.n + 1;
    if (gs_grow((void **)&b->flat.v, &b->flat.cap, need, sizeof *b->flat.v) != 0 ||
        gs_grow((void **)&b->onstack.v, &b->onstack.cap, need, sizeof *b->onstack.v) != 0 ||
        gs_grow((void **)&b->stamp.v, &b->stamp.cap, need, sizeof *b->stamp.v) != 0)
        return -1;
    for (size_t i = b->flat.n; i < need; i++) {
        b->flat.v[i] = (acc){0};
        b->onstack.v[i] = 0;
        b->stamp.v[i] = 0;
    }
    b->flat.n = b->onstack.n = b->stamp.n = need;
    return 0;
}

/* ---- one trace ------------------------------------------------------------------------------ */

/* Per range of the trace (only its Python frames' entries are used). */
typedef struct trace_frames {
    gs_str *name;     /* the summary's id of the frame's name */
    gs_str *module;   /* a module frame: the summary's id of its module name; else GS_STR_EMPTY */
    uint32_t *node;   /* its call-tree node */
    uint32_t *mod;    /* the module node it runs in: its own, or its nearest enclosing one */
    uint32_t *api_frame; /* per API call: the innermost frame on its thread around it */
} trace_frames;

static void trace_frames_free(trace_frames *f)
{
    free(f->name), free(f->module), free(f->node), free(f->mod), free(f->api_frame);
}

static gs_ns window_part(const gs_window *w, gs_ns start, gs_ns end)
{
    return gs_window_restricts(w) ? gs_spans_overlap(&w->spans, start, end) : end - start;
}

static int name_frames(builder *b, const gs_trace *t, trace_frames *f)
{
    gs_name_map map;
    if (gs_name_map_init(&map, &b->out->names, t, NULL) != 0)
        return -1;
    const size_t plen = strlen(GS_MODULE_FRAME_PREFIX);
    int rc = 0;
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (r->kind != GS_RANGE_PYTHON)
            continue;
        f->name[i] = gs_name_map_get(&map, r->name);
        const char *s = gs_trace_str(t, r->name);
        f->module[i] = GS_STR_EMPTY;
        if (!strncmp(s, GS_MODULE_FRAME_PREFIX, plen))
            f->module[i] = gs_strtab_intern(&b->out->names, s + plen, strlen(s + plen));
        if (f->name[i] == GS_STR_ERROR || f->module[i] == GS_STR_ERROR)
            rc = -1;
    }
    gs_name_map_free(&map);
    return rc == 0 ? grow_names(b) : -1;
}

/* A frame enters the stack: its node, its module, and its CPU time inside the window. */
static int enter_frame(builder *b, const gs_trace *t, const gs_window *w, trace_frames *f,
                       uint32_t r, uint32_t top)
{
    const gs_range *x = &t->ranges.v[r];
    gs_str name = f->name[r];
    uint32_t pmod = top != GS_NONE ? f->mod[top] : GS_NONE;
    f->node[r] = node_get(&b->tree, top != GS_NONE ? f->node[top] : GS_NONE, name);
    f->mod[r] = f->module[r] ? node_get(&b->modules, pmod, f->module[r]) : pmod;
    if (f->node[r] == GS_NONE || (f->module[r] && f->mod[r] == GS_NONE))
        return -1;
    gs_ns in = window_part(w, x->start, x->end);
    if (gs_window_restricts(w) && in == 0 && !gs_window_holds(w, x->start))
        return 0;
    b->out->python_frames++;
    acc *n = &b->tree.nodes.v[f->node[r]].a;
    n->calls++;
    n->cpu_total += in;
    n->cpu_self += in;
    acc *fl = &b->flat.v[name];
    fl->calls++;
    fl->cpu_self += in;
    if (b->onstack.v[name] == 0) /* a recursive call's time is in its outer call's already */
        fl->cpu_total += in;
    if (top != GS_NONE) {
        b->tree.nodes.v[f->node[top]].a.cpu_self -= in;
        b->flat.v[f->name[top]].cpu_self -= in;
    }
    if (f->module[r]) {
        acc *m = &b->modules.nodes.v[f->mod[r]].a;
        m->calls++;
        m->cpu_total += in;
        m->cpu_self += in;
        if (pmod != GS_NONE)
            b->modules.nodes.v[pmod].a.cpu_self -= in;
    }
    return 0;
}

/* Nests the frames and the CUDA calls of each thread: a stack sweep over both in time order. */
static int nest_frames(builder *b, const gs_trace *t, const gs_window *w, trace_frames *f)
{
    size_t n = t->apis.n;
    for (size_t i = 0; i < t->ranges.n; i++)
        n += t->ranges.v[i].kind == GS_RANGE_PYTHON;
    gs_nest_item *items = gs_array_new(n, sizeof *items);
    uint32_t *stack = gs_array_new(n, sizeof *stack);
    int rc = items && stack ? 0 : -1;
    size_t k = 0;
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (r->kind == GS_RANGE_PYTHON)
            items[k++] = (gs_nest_item){r->pid, r->tid, r->start, r->end, (uint32_t)i, 0};
    }
    for (size_t i = 0; i < t->apis.n && rc == 0; i++) {
        const gs_api *a = &t->apis.v[i];
        items[k++] = (gs_nest_item){a->pid, a->tid, a->start, a->end, (uint32_t)i, 1};
    }
    if (rc == 0)
        qsort(items, k, sizeof *items, gs_nest_item_cmp);
    size_t depth = 0;
    for (size_t i = 0; i < k && rc == 0; i++) {
        const gs_nest_item *it = &items[i];
        bool new_thread = i > 0 && (it->pid != items[i - 1].pid || it->tid != items[i - 1].tid);
        /* Pop the frames that do not hold this item (ended before it, or overlap it partly). */
        while (depth > 0) {
            const gs_range *top = &t->ranges.v[stack[depth - 1]];
            if (!new_thread && it->start >= top->start && it->end <= top->end)
                break;
            b->onstack.v[f->name[stack[--depth]]]--;
        }
        uint32_t top = depth ? stack[depth - 1] : GS_NONE;
        if (it->is_api) {
            f->api_frame[it->idx] = top;
            continue;
        }
        rc = enter_frame(b, t, w, f, it->idx, top);
        stack[depth++] = it->idx;
        b->onstack.v[f->name[it->idx]]++;
    }
    while (depth > 0)
        b->onstack.v[f->name[stack[--depth]]]--;
    free(items);
    free(stack);
    return rc;
}

/* One GPU activity: to every frame on its launching thread's stack (a name once, however often
 * it recurs), its innermost frame's self, and the modules it ran in. */
static void charge_gpu(builder *b, const gs_trace *t, const gs_window *w, const trace_frames *f,
                       uint32_t api, gs_ns start, gs_ns dur)
{
    if (!gs_window_holds_gpu(w, t, start, api))
        return;
    b->out->gpu_time += dur;
    uint32_t frame = api != GS_NONE ? f->api_frame[api] : GS_NONE;
    if (frame == GS_NONE) {
        b->out->gpu_unattributed += dur;
        return;
    }
    uint64_t seq = ++b->seq;
    b->tree.nodes.v[f->node[frame]].a.gpu_self += dur;
    b->flat.v[f->name[frame]].gpu_self += dur;
    for (uint32_t nd = f->node[frame]; nd != GS_NONE; nd = b->tree.nodes.v[nd].parent) {
        node *x = &b->tree.nodes.v[nd];
        x->a.gpu_total += dur;
        x->a.launches++;
        if (b->stamp.v[x->name] != seq) {
            b->stamp.v[x->name] = seq;
            b->flat.v[x->name].gpu_total += dur;
            b->flat.v[x->name].launches++;
        }
    }
    if (f->mod[frame] != GS_NONE)
        b->modules.nodes.v[f->mod[frame]].a.gpu_self += dur;
    for (uint32_t m = f->mod[frame]; m != GS_NONE; m = b->modules.nodes.v[m].parent) {
        b->modules.nodes.v[m].a.gpu_total += dur;
        b->modules.nodes.v[m].a.launches++;
    }
}

static int collect_trace(builder *b, const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    const gs_window *w = &c->window;
    size_t nr = t->ranges.n ? t->ranges.n : 1;
    trace_frames f = {
        .name = gs_array_zeroed(nr, sizeof *f.name),
        .module = gs_array_zeroed(nr, sizeof *f.module),
        .node = gs_array_zeroed(nr, sizeof *f.node),
        .mod = gs_array_zeroed(nr, sizeof *f.mod),
        .api_frame = gs_array_zeroed(t->apis.n, sizeof *f.api_frame),
    };
    int rc = f.name && f.module && f.node && f.mod && f.api_frame ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->apis.n; i++)
        f.api_frame[i] = GS_NONE;
    if (rc == 0)
        rc = name_frames(b, t, &f);
    if (rc == 0)
        rc = nest_frames(b, t, w, &f);
    for (size_t i = 0; rc == 0 && i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        charge_gpu(b, t, w, &f, k->api, k->start, k->end - k->start);
    }
    for (size_t i = 0; rc == 0 && i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        charge_gpu(b, t, w, &f, m->api, m->start, m->end - m->start);
    }
    trace_frames_free(&f);
    return rc;
}

/* ---- rows ------------------------------------------------------------------------------------ */

static const gs_strtab *sort_names; /* for the comparators below: qsort takes no context */

static int cmp_acc(const acc *a, const acc *b, gs_str an, gs_str bn)
{
    if (a->gpu_total != b->gpu_total)
        return a->gpu_total > b->gpu_total ? -1 : 1;
    if (a->cpu_total != b->cpu_total)
        return a->cpu_total > b->cpu_total ? -1 : 1;
    return strcmp(gs_str_get(sort_names, an), gs_str_get(sort_names, bn));
}

static int cmp_row(const void *pa, const void *pb)
{
    const gs_callsite_row *a = pa, *b = pb;
    if (a->gpu_total != b->gpu_total)
        return a->gpu_total > b->gpu_total ? -1 : 1;
    if (a->cpu_total != b->cpu_total)
        return a->cpu_total > b->cpu_total ? -1 : 1;
    return strcmp(a->name, b->name);
}

static const node *sort_nodes;

/* By parent (roots last), then the rows' order. */
static int cmp_child(const void *pa, const void *pb)
{
    const node *a = &sort_nodes[*(const uint32_t *)pa], *b = &sort_nodes[*(const uint32_t *)pb];
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    return cmp_acc(&a->a, &b->a, a->name, b->name);
}

static gs_callsite_row row_of(const gs_strtab *names, gs_str name, const acc *a)
{
    return (gs_callsite_row){.name = gs_str_get(names, name), .parent = GS_NONE,
                             .calls = a->calls, .launches = a->launches,
                             .gpu_total = a->gpu_total, .gpu_self = a->gpu_self,
                             .cpu_total = a->cpu_total, .cpu_self = a->cpu_self};
}

static bool seen(const acc *a)
{
    return a->calls || a->gpu_total;
}

/* A tree's rows depth first, siblings in the rows' order; a module tree's rows get their paths. */
static int tree_rows(node_set *s, gs_strtab *names, bool paths, gs_callsite_row **rows,
                     size_t *nrows)
{
    size_t n = s->nodes.n;
    uint32_t *order = gs_array_new(n, sizeof *order);
    size_t *first = malloc((n + 1) * sizeof *first); /* first child of node i in `order` */
    uint32_t *row_of_node = gs_array_new(n, sizeof *row_of_node);
    uint32_t *stack = gs_array_new(n, sizeof *stack);
    *rows = gs_array_zeroed(n, sizeof **rows);
    int rc = order && first && row_of_node && stack && *rows ? 0 : -1;
    char *buf = NULL;
    size_t bufcap = 0;
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            order[i] = (uint32_t)i;
        sort_nodes = s->nodes.v;
        sort_names = names;
        qsort(order, n, sizeof *order, cmp_child);
        /* first[p]: where p's children start; the roots (parent GS_NONE) come last. */
        size_t j = 0;
        for (size_t p = 0; p <= n; p++) {
            while (j < n && s->nodes.v[order[j]].parent < p)
                j++;
            first[p] = j;
        }
        size_t depth = 0;
        for (size_t i = n; i-- > first[n];) /* push roots in reverse: the first pops first */
            if (seen(&s->nodes.v[order[i]].a))
                stack[depth++] = order[i];
        while (depth > 0 && rc == 0) {
            uint32_t nd = stack[--depth];
            const node *x = &s->nodes.v[nd];
            gs_callsite_row *r = &(*rows)[*nrows];
            *r = row_of(names, x->name, &x->a);
            r->depth = x->depth;
            r->parent = x->parent != GS_NONE ? row_of_node[x->parent] : GS_NONE;
            row_of_node[nd] = (uint32_t)(*nrows)++;
            if (paths) {
                const char *up = r->parent != GS_NONE ? (*rows)[r->parent].path : "";
                size_t len = strlen(up) + 1 + strlen(r->name) + 1;
                if (gs_grow((void **)&buf, &bufcap, len, 1) != 0) {
                    rc = -1;
                    break;
                }
                strcpy(buf, up);
                if (*up)
                    strcat(buf, "/");
                strcat(buf, r->name);
                gs_str id = gs_strtab_intern(names, buf, strlen(buf));
                if (id == GS_STR_ERROR)
                    rc = -1;
                else
                    r->path = gs_str_get(names, id);
            }
            for (size_t c = first[nd + 1]; c-- > first[nd];)
                if (seen(&s->nodes.v[order[c]].a))
                    stack[depth++] = order[c];
        }
    }
    free(buf);
    free(order), free(first), free(row_of_node), free(stack);
    return rc;
}

static int make_rows(builder *b)
{
    gs_callsites *s = b->out;
    s->frames = gs_array_zeroed(b->flat.n, sizeof *s->frames);
    if (!s->frames)
        return -1;
    for (size_t i = 0; i < b->flat.n; i++)
        if (seen(&b->flat.v[i]))
            s->frames[s->nframes++] = row_of(&s->names, (gs_str)i, &b->flat.v[i]);
    qsort(s->frames, s->nframes, sizeof *s->frames, cmp_row);
    if (tree_rows(&b->tree, &s->names, false, &s->tree, &s->ntree) != 0 ||
        tree_rows(&b->modules, &s->names, true, &s->modules, &s->nmodules) != 0)
        return -1;
    /* The path strings were interned after the rows took their names' pointers: a string table
     * keeps its strings where they are (model/strtab.h), so those stay good. */
    return 0;
}

static void builder_free(builder *b)
{
    if (!b)
        return;
    GS_VEC_FREE(&b->flat);
    GS_VEC_FREE(&b->onstack);
    GS_VEC_FREE(&b->stamp);
    node_set_free(&b->tree);
    node_set_free(&b->modules);
    free(b);
}

int gs_callsites_init(gs_callsites *s, gs_error *err)
{
    memset(s, 0, sizeof *s);
    builder *b = calloc(1, sizeof *b);
    if (!b || gs_strtab_init(&s->names) != 0) {
        free(b);
        gs_callsites_free(s);
        return gs_fail_oom(err);
    }
    b->out = s;
    gs_hashtab_init(&b->tree.index, sizeof(node_key));
    gs_hashtab_init(&b->modules.index, sizeof(node_key));
    s->building = b;
    return 0;
}

int gs_callsites_add(gs_callsites *s, const gs_trace_ctx *c, gs_error *err)
{
    if (collect_trace(s->building, c) != 0) {
        gs_callsites_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_callsites_finish(gs_callsites *s, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    int rc = make_rows(s->building);
    builder_free(s->building);
    s->building = NULL;
    if (rc != 0) {
        gs_callsites_free(s);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "Python call sites");
    return 0;
}

int gs_callsites_build(const gs_trace_ctx *c, gs_callsites *out, gs_error *err)
{
    return gs_callsites_init(out, err) != 0 || gs_callsites_add(out, c, err) != 0
               ? -1
               : gs_callsites_finish(out, err);
}

void gs_callsites_free(gs_callsites *s)
{
    free(s->frames);
    free(s->tree);
    free(s->modules);
    gs_strtab_free(&s->names);
    builder_free(s->building);
    memset(s, 0, sizeof *s);
}
