/* The Kineto and legacy readers and the model's indexes, on small traces written here with
 * answers computed by hand. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ingest/load.h"

static gs_trace *load(const char *name, const char *json, gs_error *err)
{
    gs_trace *t = NULL;
    memset(err, 0, sizeof *err);
    if (gs_load_trace_buffer(json, strlen(json), name, NULL, &t, err) != 0)
        return NULL;
    return t;
}

static const char *str(const gs_trace *t, gs_str id)
{
    return gs_trace_str(t, id);
}

/* Modern dialect: relative µs with ns digits, baseTimeNanoseconds after the events (as before
 * Mar 2025), ac2g flows, a step, an op with a launch, a kernel, a pageable copy, a pinned copy. */
static const char modern[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\","
    " \"totalGlobalMem\": 85029158912, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132,"
    " \"maxThreadsPerMultiprocessor\": 2048}],"
    " \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8},"
    " \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#7\", \"pid\": 10, "
    "\"tid\": 11, \"ts\": 100.000, \"dur\": 50.000, \"args\": {\"External id\": 1}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 10, \"tid\": 11, "
    "\"ts\": 110.250, \"dur\": 20.500, \"args\": {\"External id\": 2, \"Input Dims\": [[2, 3], [], "
    "[3]]}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 10, "
    "\"tid\": 11, \"ts\": 115.000, \"dur\": 5.125, \"args\": {\"External id\": 2, \"cbid\": 211, "
    "\"correlation\": 77}},"
    "{\"ph\": \"s\", \"id\": 77, \"pid\": 10, \"tid\": 11, \"ts\": 115.000, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\"},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"vectorized_add\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": 125.001, \"dur\": 3.999, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": 77,"
    " \"External id\": 2, \"registers per thread\": 16, \"shared memory\": 0, \"blocks per SM\": "
    "1.5, \"warps per SM\": 6, \"grid\": [198, 1, 1], \"block\": [128, 1, 1], \"est. achieved "
    "occupancy %\": 9}},"
    "{\"ph\": \"f\", \"id\": 77, \"pid\": 0, \"tid\": 7, \"ts\": 125.001, \"cat\": \"ac2g\", "
    "\"name\": \"ac2g\", \"bp\": \"e\"},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\", "
    "\"pid\": 0, \"tid\": 7, \"ts\": 131, \"dur\": 2, \"args\": {\"device\": 0, \"stream\": 7, "
    "\"correlation\": 78, \"bytes\": 4096}},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy DtoH (Device -> Pinned)\", "
    "\"pid\": 0, \"tid\": 7, \"ts\": 133, \"dur\": 1, \"args\": {\"device\": 0, \"stream\": 7, "
    "\"bytes\": 64}},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 134, \"dur\": 1, \"args\": {\"device\": 0, \"stream\": 7, \"bytes\": 8}},"
    "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"pid\": 10, \"tid\": "
    "11, \"ts\": 112, \"s\": \"t\", \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Addr\": "
    "140000, \"Bytes\": 512, \"Total Allocated\": 1024, \"Total Reserved\": 2097152}},"
    "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 100, \"pid\": 10, \"tid\": 11, \"args\": "
    "{\"name\": \"thread 11 (python)\"}},"
    "{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": 90, \"dur\": 100, \"pid\": \"Spans\", \"tid\": "
    "\"PyTorch Profiler\", \"name\": \"PyTorch Profiler (0)\", \"args\": {\"Op count\": 0}},"
    "{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", \"tid\": \"\", "
    "\"ts\": 400}"
    "], \"traceName\": \"x.json\", \"displayTimeUnit\": \"ms\", \"baseTimeNanoseconds\": "
    "1700000000000000000}";

static void test_modern(void)
{
    gs_error err;
    gs_trace *t = load("modern.json", modern, &err);
    CHECK(t != NULL);
    if (!t) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK_STR(str(t, t->format), "kineto");
    CHECK_INT(t->id.rank, 3);
    CHECK_INT(t->id.world_size, 8);
    CHECK_INT(t->id.source, GS_RANK_FROM_METADATA);
    CHECK_INT(t->id.epoch_ns, 1700000000000000000LL);
    CHECK_INT(t->devices.n, 1);
    CHECK_STR(str(t, t->devices.v[0].name), "NVIDIA H100 80GB HBM3");
    CHECK_INT(t->devices.v[0].num_sms, 132);
    CHECK_INT(t->devices.v[0].total_memory, 85029158912LL);
    CHECK_INT(t->devices.v[0].compute_major, 9);

    CHECK_INT(t->kernels.n, 1);
    const gs_kernel *k = &t->kernels.v[0];
    CHECK_STR(str(t, k->name), "vectorized_add");
    CHECK_INT(k->start, 125001);
    CHECK_INT(k->end, 129000);
    CHECK_INT(k->device, 0);
    CHECK_INT(k->stream, 7);
    CHECK_INT(k->grid[0], 198);
    CHECK_INT(k->block[0], 128);
    CHECK_INT(k->registers_per_thread, 16);
    CHECK(k->blocks_per_sm == 1.5f);
    CHECK(k->occupancy_pct == 9.0f);

    CHECK_INT(t->pid, 10);
    CHECK_INT(t->apis.n, 1);
    CHECK_INT(t->apis.v[0].cbid, 211);
    CHECK_INT(k->api, 0);
    CHECK_INT(t->apis.v[0].gpu_class, GS_GPU_KERNEL);
    CHECK_INT(t->apis.v[0].gpu, 0);

    /* Ranges sorted by start: the step, then aten::add. Trace spans are not ranges. */
    CHECK_INT(t->ranges.n, 2);
    const gs_range *step = &t->ranges.v[0], *add = &t->ranges.v[1];
    CHECK_STR(str(t, step->name), "ProfilerStep#7");
    CHECK_INT(step->kind, GS_RANGE_ANNOTATION);
    CHECK_STR(str(t, add->name), "aten::add");
    CHECK_STR(str(t, add->input_dims), "[[2, 3], [], [3]]");
    CHECK_INT(add->parent, 0);
    CHECK_INT(add->depth, 1);
    CHECK_INT(step->parent, GS_NONE);
    /* Self time: the step minus aten::add; aten::add minus the launch call inside it. */
    CHECK_INT(step->self_ns, 50000 - 20500);
    CHECK_INT(add->self_ns, 20500 - 5125);
    CHECK_INT(t->apis.v[0].parent, 1);
    CHECK_INT(k->op, 1);
    CHECK_INT(t->thread_apis.n, 1);
    CHECK_INT(t->thread_apis.v[0], 0);

    CHECK_INT(t->memops.n, 3);
    CHECK_INT(t->memops.v[0].kind, GS_MEMOP_HTOD);
    CHECK_INT(t->memops.v[0].src, GS_LOC_PAGEABLE);
    CHECK_INT(t->memops.v[0].dst, GS_LOC_DEVICE);
    CHECK_INT(t->memops.v[0].bytes, 4096);
    CHECK_INT(t->memops.v[0].api, GS_NONE); /* correlation 78 has no runtime call */
    CHECK_INT(t->memops.v[1].kind, GS_MEMOP_DTOH);
    CHECK_INT(t->memops.v[1].dst, GS_LOC_PINNED);
    CHECK_INT(t->memops.v[2].kind, GS_MEMOP_MEMSET);
    CHECK_INT(t->memops.v[2].dst, GS_LOC_DEVICE);

    CHECK_INT(t->mem_events.n, 1);
    CHECK_INT(t->mem_events.v[0].bytes, 512);
    CHECK_INT(t->mem_events.v[0].total_allocated, 1024);
    CHECK_INT(t->mem_events.v[0].total_reserved, 2097152);
    CHECK_INT(t->mem_events.v[0].device, 0);
    CHECK_INT(t->instants.n, 0); /* the global "Record Window End" marker is not an event */
    CHECK_INT(t->threads.n, 1);
    CHECK_STR(str(t, t->threads.v[0].name), "thread 11 (python)");

    gs_ns first, last;
    CHECK(gs_trace_span(t, &first, &last));
    CHECK_INT(first, 100000);
    CHECK_INT(last, 150000);
    gs_trace_delete(t);
}

/* PyTorch ≤ 1.9: capitalised categories, string tids, "external id", integer epoch µs. */
static const char old_dialect[] =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"aten::mm\", \"pid\": 5, \"tid\": \"25738\","
    " \"ts\": 1665536373729000, \"dur\": 100, \"args\": {\"external id\": 9}},"
    "{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 5, \"tid\": "
    "\"25738\", \"ts\": 1665536373729010, \"dur\": 7, \"args\": {\"cbid\": 211, \"correlation\": "
    "538860, \"external id\": 9}},"
    "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": \"stream 7\", "
    "\"ts\": 1665536373729077, \"dur\": 4, \"args\": {\"correlation\": 538860}},"
    "{\"ph\": \"f\", \"id\": 538860, \"pid\": 0, \"tid\": 7, \"ts\": 1665536373729077, \"cat\": "
    "\"async_gpu\", \"name\": \"cudaLaunchKernel\", \"bp\": \"e\"},"
    "{\"ph\": \"X\", \"cat\": \"Memcpy\", \"name\": \"Memcpy DtoD (Device -> Device)\", \"pid\": 0,"
    " \"tid\": \"stream 7\", \"ts\": 1665536373729090, \"dur\": 18, \"args\": {\"bytes\": 3010560}},"
    "{\"ph\": \"X\", \"cat\": \"Memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": "
    "\"stream 21\", \"ts\": 1665536373729100, \"dur\": 2, \"args\": {\"bytes\": 9216}}"
    "]}";

static void test_old_dialect(void)
{
    gs_error err;
    gs_trace *t = load("rank-12.Oct_01.pt.trace.json", old_dialect, &err);
    CHECK(t != NULL);
    if (!t) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK_INT(t->id.rank, 12); /* no distributedInfo: taken from the file name */
    CHECK_INT(t->id.source, GS_RANK_FROM_FILENAME);
    CHECK_INT(t->id.epoch_ns, 0);
    CHECK_INT(t->ranges.n, 1);
    CHECK_INT(t->ranges.v[0].tid, 25738);
    CHECK_INT(t->ranges.v[0].external_id, 9);
    CHECK_INT(t->kernels.n, 1);
    CHECK_INT(t->kernels.v[0].start, 1665536373729077000LL);
    CHECK_INT(t->kernels.v[0].stream, 7);
    CHECK_INT(t->kernels.v[0].device, 0);
    CHECK_INT(t->kernels.v[0].api, 0);
    CHECK_INT(t->kernels.v[0].op, 0);
    CHECK_INT(t->apis.v[0].parent, 0);
    CHECK_INT(t->ranges.v[0].self_ns, 100000 - 7000);
    CHECK_INT(t->memops.n, 2);
    CHECK_INT(t->memops.v[0].kind, GS_MEMOP_DTOD);
    CHECK_INT(t->memops.v[1].stream, 21);
    CHECK_INT(t->memops.v[1].kind, GS_MEMOP_MEMSET);
    gs_trace_delete(t);
}

/* The legacy autograd export: a top-level array, pid "CPU functions", µs from profiler start. */
static const char legacy[] =
    "[{\"name\": \"ProfilerStep#1\", \"ph\": \"X\", \"ts\": 273, \"dur\": 100, \"tid\": 1, \"pid\": "
    "\"CPU functions\", \"args\": {}},"
    " {\"name\": \"aten::conv2d\", \"ph\": \"X\", \"ts\": 274, \"dur\": 50, \"tid\": 1, \"pid\": "
    "\"CPU functions\", \"args\": {}},"
    " {\"name\": \"aten::convolution\", \"ph\": \"X\", \"ts\": 275, \"dur\": 40.5, \"tid\": 1, "
    "\"pid\": \"CPU functions\", \"args\": {}},"
    " {\"name\": \"conv_kernel\", \"ph\": \"X\", \"ts\": 280, \"dur\": 30, \"tid\": 0, \"pid\": "
    "\"CUDA functions\", \"args\": {}},"
    " {\"name\": \"aten::relu\", \"ph\": \"X\", \"ts\": 330, \"dur\": 10, \"tid\": 1, \"pid\": "
    "\"CPU functions\", \"args\": {}}]";

static void test_legacy(void)
{
    gs_error err;
    gs_trace *t = load("legacy.json", legacy, &err);
    CHECK(t != NULL);
    if (!t) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK_STR(str(t, t->format), "legacy");
    CHECK_INT(t->ranges.n, 4);
    CHECK_INT(t->kernels.n, 1);
    CHECK_INT(t->kernels.v[0].device, 0);
    const gs_range *step = &t->ranges.v[0], *conv = &t->ranges.v[1], *convolution = &t->ranges.v[2],
                   *relu = &t->ranges.v[3];
    CHECK_INT(step->kind, GS_RANGE_OP);
    CHECK_INT(conv->parent, 0);
    CHECK_INT(convolution->parent, 1);
    CHECK_INT(convolution->depth, 2);
    CHECK_INT(relu->parent, 0);
    CHECK_INT(relu->depth, 1);
    CHECK_INT(step->self_ns, 100000 - 50000 - 10000);
    CHECK_INT(conv->self_ns, 50000 - 40500);
    CHECK_INT(convolution->self_ns, 40500);
    gs_trace_delete(t);
}

/* Nesting edge cases: identical intervals (file order decides), zero-length children at a
 * parent's end, partial overlap (not a child), separate threads. */
static void test_nesting(void)
{
    const char *json =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"same\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"tail\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":0},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"cross\",\"pid\":1,\"tid\":1,\"ts\":8,\"dur\":5},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"other\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":2},"
        "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"py\",\"pid\":1,\"tid\":1,\"ts\":0,"
        "\"dur\":20}"
        "]}";
    gs_error err;
    gs_trace *t = load("nest.json", json, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    /* Sorted by (start, longest first, file order): py, outer, same, other, cross, tail. */
    const char *order[] = {"py", "outer", "same", "other", "cross", "tail"};
    for (int i = 0; i < 6; i++)
        CHECK_STR(str(t, t->ranges.v[i].name), order[i]);
    CHECK_INT(t->ranges.v[0].parent, GS_NONE); /* python functions are not in the op tree */
    CHECK_INT(t->ranges.v[0].self_ns, 20000);
    CHECK_INT(t->ranges.v[1].parent, GS_NONE);
    CHECK_INT(t->ranges.v[2].parent, 1);
    CHECK_INT(t->ranges.v[3].parent, GS_NONE);
    CHECK_INT(t->ranges.v[4].parent, GS_NONE); /* 8..13 is not inside 0..10 */
    CHECK_INT(t->ranges.v[5].parent, 4); /* "tail" 10..10 lies inside "cross" 8..13 */
    CHECK_INT(t->ranges.v[1].self_ns, 0);
    CHECK_INT(t->ranges.v[2].self_ns, 10000);
    /* Per-thread order of the op tree: thread 1's outer, same, cross, tail, then thread 2's
     * other; the Python frame is not in the tree. */
    const uint32_t want[] = {1, 2, 4, 5, 3};
    CHECK_INT(t->thread_ranges.n, 5);
    for (size_t i = 0; i < 5 && i < t->thread_ranges.n; i++)
        CHECK_INT(t->thread_ranges.v[i], want[i]);
    CHECK_INT(t->thread_apis.n, 0);
    /* Each thread's place in that order; a thread with none, before, between or after them,
     * an empty place where it would be. */
    size_t lo, hi;
    gs_thread_order_span(t, true, 1, 1, &lo, &hi);
    CHECK(lo == 0 && hi == 4);
    gs_thread_order_span(t, true, 1, 2, &lo, &hi);
    CHECK(lo == 4 && hi == 5);
    gs_thread_order_span(t, true, 0, 9, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    gs_thread_order_span(t, true, 1, 3, &lo, &hi);
    CHECK(lo == 5 && hi == 5);
    gs_thread_order_span(t, false, 1, 1, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    gs_trace_delete(t);
}

/* Input Dims is kept as compact text whatever it holds: the shapes, or (in hostile input)
 * objects with keys, which take the most room per token. */
static void test_input_dims(void)
{
    const char *json =
        "{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",\"pid\":1,"
        "\"tid\":1,\"ts\":0,\"dur\":1,\"args\":{\"Input Dims\": [{\"k\": \"v\", \"kk\": [\"s\"]},"
        " [1,2], \"x\", {\"a\":{\"b\":\"c\"}}]}}]}";
    gs_error err;
    gs_trace *t = load("dims.json", json, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_STR(str(t, t->ranges.v[0].input_dims),
              "[{\"k\":\"v\", \"kk\":[\"s\"]}, [1, 2], \"x\", {\"a\":{\"b\":\"c\"}}]");
    gs_trace_delete(t);
}

static void check_bad(const char *json, const char *want_msg)
{
    gs_error err;
    gs_trace *t = load("bad.json", json, &err);
    CHECK(t == NULL);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    if (!strstr(err.msg, want_msg))
        fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", err.msg, want_msg);
    CHECK(strstr(err.msg, want_msg) != NULL);
    gs_trace_delete(t);
}

static void test_bad_input(void)
{
    check_bad("", "bad.json: empty file");
    check_bad("{\"schema\": \"1.0.1\", \"nodes\": []}", "a PyTorch execution trace (nodes");
    check_bad("{\"schemaVersion\": 1, \"events\": []}", "not a PyTorch profiler trace");
    check_bad("{\"format\": \"gpuscope-rank-summary\", \"version\": 1, \"rank\": {}}",
              "bad.json: a rank summary (gpuscope summarize)");
    check_bad("{\"format\": \"other\", \"version\": 1}", "not a PyTorch profiler trace");
    check_bad("SQLite format 3", "bad.json: an SQLite database");
    check_bad("{\"traceEvents\": []}", "the trace has no events");
    check_bad("[]", "the trace has no events");
    check_bad("[[1, 2], [3, 4]]", "bad.json: byte 1: not a profiler trace");
    check_bad("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 2}, {\"ph\"",
              "bad.json: byte 63: input ends inside an event");
    check_bad("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1",
              "input ends inside an event");
    check_bad("{\"traceEvents\": [{\"ph\": \"X\"}]", "input ends inside the trace object");
    check_bad("\x89PNG\r\n\x1a\n", "bad.json: byte 0: unexpected byte 0x89: not JSON text");
    check_bad("42", "not a profiler trace (expected a JSON object or array)");
}

static void test_missing_file(void)
{
    gs_error err = {0};
    gs_trace *t = NULL;
    CHECK_INT(gs_load_trace("/nonexistent/trace.json", NULL, &t, &err), -1);
    CHECK_STR(err.msg, "/nonexistent/trace.json: No such file or directory");
    CHECK_INT(err.code, GS_EXIT_INPUT);
}

/* GPU work whose launch call the trace lacks goes to the operator with its External id: the
 * first kernel to aten::mm (External id 4), the copy to aten::add (5); a kernel whose External id
 * no operator has, and one launched through a call, are left as they are. */
static const char no_launch_calls[] =
    "{\"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 100, \"dur\": 50, \"args\": {\"External id\": 4}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 200, \"dur\": 50, \"args\": {\"External id\": 5}},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
    " \"tid\": 1, \"ts\": 210, \"dur\": 5, \"args\": {\"correlation\": 31, \"External id\": 5}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 160, \"dur\": 10, \"args\": {\"External id\": 4, \"correlation\": 30, "
    "\"stream\": 7, \"device\": 0}},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\","
    " \"pid\": 0, \"tid\": 7, \"ts\": 180, \"dur\": 10, \"args\": {\"External id\": 5, "
    "\"correlation\": 29, \"stream\": 7, \"device\": 0, \"bytes\": 64}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"orphan\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 190, \"dur\": 5, \"args\": {\"External id\": 99, \"correlation\": 28, "
    "\"stream\": 7, \"device\": 0}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"add\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 220, \"dur\": 5, \"args\": {\"External id\": 4, \"correlation\": 31, "
    "\"stream\": 7, \"device\": 0}}"
    "]}";

static void test_external_id_links(void)
{
    gs_error err;
    gs_trace *t = load("links.json", no_launch_calls, &err);
    CHECK(t != NULL);
    if (!t) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK_INT(t->ranges.n, 2);
    CHECK_INT(t->kernels.n, 3);
    CHECK_INT(t->memops.n, 1);
    CHECK_STR(str(t, t->kernels.v[0].name), "gemm");
    CHECK_INT(t->kernels.v[0].api, GS_NONE);
    CHECK_INT(t->kernels.v[0].op, 0); /* aten::mm, by External id */
    CHECK_INT(t->memops.v[0].op, 1);  /* aten::add, by External id */
    CHECK_STR(str(t, t->kernels.v[1].name), "orphan");
    CHECK_INT(t->kernels.v[1].op, GS_NONE);
    CHECK_STR(str(t, t->kernels.v[2].name), "add");
    CHECK_INT(t->kernels.v[2].api, 0);
    CHECK_INT(t->kernels.v[2].op, 1); /* its call's operator, not its External id's */
    gs_trace_delete(t);
}

/* Flows and begin/end pairs are counted, not read, wherever "ph" stands in them, whatever
 * follows it (nested args, escapes); an operator's begin does not name the profiled process. */
static const char unused_phases[] =
    "{\"traceEvents\": ["
    "{\"name\": \"begin\", \"cat\": \"cpu_op\", \"pid\": 99, \"tid\": 1, \"ph\": \"B\", "
    "\"ts\": 1},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 10, \"tid\": 11, "
    "\"ts\": 10, \"dur\": 20, \"args\": {\"External id\": 2}},"
    "{\"ts\": 12, \"pid\": 10, \"ph\": \"f\", \"id\": 77, \"tid\": 11, \"cat\": \"ac2g\", "
    "\"name\": \"flow}name\", \"bp\": \"e\"},"
    "{\"ph\": \"B\", \"pid\": 10, \"tid\": 11, \"ts\": 13, \"name\": \"q\\\"uoted\", "
    "\"args\": {\"a\": [1, {\"b\": \"}\"}]}},"
    "{\"ph\": \"E\", \"pid\": 10, \"tid\": 11, \"ts\": 14},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 10, \"tid\": 11, "
    "\"ts\": 15, \"dur\": 2}"
    "]}";

static bool interned(const gs_trace *t, const char *name)
{
    for (size_t i = 0; i < t->strings.n; i++)
        if (strcmp(gs_str_get(&t->strings, (gs_str)i), name) == 0)
            return true;
    return false;
}

static void test_unused_phases(void)
{
    gs_error err;
    gs_trace *t = load("phases.json", unused_phases, &err);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_INT(t->skipped_why[GS_SKIP_PHASE], 4);
    CHECK_INT(t->events_skipped, 4);
    CHECK_INT(t->ranges.n, 2);
    if (t->ranges.n == 2) {
        CHECK_STR(str(t, t->ranges.v[0].name), "aten::mm");
        CHECK_STR(str(t, t->ranges.v[1].name), "aten::add");
        CHECK_INT(t->ranges.v[1].start, 15000);
    }
    CHECK_INT(t->pid, 10);
    /* Read up to "ph": the first event's name; unread: the flow's after it, and the one after
     * it in a begin skipped token by token (its escape and nested args are not flat). */
    CHECK(interned(t, "begin"));
    CHECK(!interned(t, "flow}name"));
    CHECK(!interned(t, "q\"uoted"));
    gs_trace_delete(t);
}

int main(void)
{
    test_modern();
    test_old_dialect();
    test_legacy();
    test_nesting();
    test_input_dims();
    test_bad_input();
    test_missing_file();
    test_external_id_links();
    test_unused_phases();
    return check_done("test_kineto");
}
