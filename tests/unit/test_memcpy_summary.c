/* The memcpy summary: grouping by kind and locations, labels, bandwidth, time share. */
#include <math.h>

#include "analysis/trace/memcpy_summary.h"
#include "check.h"
#include "trace_builder.h"

static void test_labels(void)
{
    char buf[64];
    gs_memcpy_label(buf, sizeof buf, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE);
    CHECK_STR(buf, "HtoD (Pageable -> Device)");
    gs_memcpy_label(buf, sizeof buf, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PINNED);
    CHECK_STR(buf, "DtoH (Device -> Pinned)");
    gs_memcpy_label(buf, sizeof buf, GS_MEMOP_MEMSET, GS_LOC_UNKNOWN, GS_LOC_DEVICE);
    CHECK_STR(buf, "Memset (Device)");
    gs_memcpy_label(buf, sizeof buf, GS_MEMOP_DTOD, GS_LOC_UNKNOWN, GS_LOC_UNKNOWN);
    CHECK_STR(buf, "DtoD");
}

static void test_summary(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("copies.json", 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 1000, 0, 100, 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 3000, 200, 500, 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 8000, 600, 650, 0);
    tb_memop(t, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PINNED, 500, 700, 750, 0);
    tb_memop(t, GS_MEMOP_MEMSET, GS_LOC_UNKNOWN, GS_LOC_DEVICE, 64, 800, 802, 0);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_memcpy_summary s;
    gs_error err;
    CHECK_INT(gs_memcpy_summary_build(&c, &s, &err), 0);
    CHECK_INT(s.nrows, 4);
    /* 400 ns pageable HtoD; 50 ns pinned HtoD and 50 ns DtoH tie (1 each): by operation name */
    CHECK_STR(s.rows[0].operation, "HtoD (Pageable -> Device)");
    CHECK_STR(s.rows[1].operation, "DtoH (Device -> Pinned)");
    CHECK_STR(s.rows[2].operation, "HtoD (Pinned -> Device)");
    CHECK_STR(s.rows[3].operation, "Memset (Device)");
    const gs_memcpy_row *pageable = &s.rows[0];
    CHECK_INT(pageable->time.count, 2);
    CHECK_INT(pageable->bytes, 4000);
    CHECK_INT(pageable->time.total, 400);
    CHECK_INT(pageable->time.med, 200); /* (100 + 300) / 2 */
    CHECK(fabs(pageable->bandwidth_gbps - 10.0) < 1e-12); /* 4000 B / 400 ns */
    CHECK(fabs(pageable->time_pct - 400.0 * 100 / 502) < 1e-9);
    CHECK(pageable->pageable);
    CHECK(!s.rows[1].pageable);
    CHECK_INT(s.rows[1].src, GS_LOC_DEVICE);
    CHECK_INT(s.rows[1].dst, GS_LOC_PINNED);
    CHECK(fabs(s.rows[2].bandwidth_gbps - 160.0) < 1e-12);
    CHECK_INT(s.rows[3].kind, GS_MEMOP_MEMSET);
    CHECK_INT(s.rows[3].bytes, 64);
    gs_memcpy_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_labels();
    test_summary();
    return check_done("test_memcpy_summary");
}
