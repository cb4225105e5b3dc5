/* gpuscope ncu: runs Nsight Compute on the kernels of a trace that take the most GPU time, one ncu
 * run per kernel, each filtered to one launch in the middle of that kernel's launches, and shows
 * what ncu measured joined with the trace (as kernels --ncu). ncu's options are those of NVIDIA's
 * Nsight Compute CLI documentation: --kernel-name regex:..., matched against the function name
 * (--kernel-name-base function, its default), --launch-skip, --launch-count, --log-file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/kernel_function.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/ncu_join.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/say.h"
#include "collect/child.h"
#include "common/demangle.h"
#include "common/output_file.h"
#include "common/shell_quote.h"
#include "common/util.h"
#include "ingest/ncu_csv.h"
#include "render/ncu_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/ncu.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char ncu_intro[] =
    "usage: gpuscope ncu [OPTIONS] TRACE [--] COMMAND [ARGS...]\n"
    "\n"
    "Runs Nsight Compute (ncu) on COMMAND once for each of the N kernels of TRACE\n"
    "with the most GPU time (grouped by name, grid and block), each run measuring\n"
    "one launch in the middle of that kernel's launches, then shows what ncu\n"
    "measured joined with TRACE's kernels, as 'gpuscope kernels --ncu' does. Each\n"
    "run is\n"
    "  ncu --csv --page details --set SET --kernel-name regex:^FUNCTION$\n"
    "      --launch-skip S --launch-count 1 --log-file PART COMMAND [ARGS...]\n"
    "where FUNCTION is the kernel's function name (no namespace, template\n"
    "arguments or parameters: what ncu matches by default) and S the number of\n"
    "launches of that function in TRACE before the middle launch of the kernel.\n"
    "COMMAND should do what it did when TRACE was recorded.\n"
    "\n";

static const char *const help_order[] = {"top", "set", "output", "dry-run", NULL};

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "exit status: 0 when every run succeeded; 4 when ncu is not on PATH or the\n"
     "output cannot be written; 3 for a TRACE or an export that cannot be read; 1\n"
     "when an ncu run failed (the others are still shown).\n"},
};

/* One kernel to measure: its ncu filter and launch. */
typedef struct target {
    char *regex; /* "regex:^FUNCTION$" */
    size_t skip;
    const char *name;
} target;

static void put_escaped(char *out, size_t cap, const char *s, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 3 < cap; i++) {
        if (strchr("\\^$.|?*+()[]{}", s[i]))
            out[n++] = '\\';
        out[n++] = s[i];
    }
    out[n] = 0;
}

/* The function name of a kernel name (demangled first when mangled), into buf. 0, or -1 with
 * err when it could not be demangled (out of memory). */
static int function_name(const char *name, char *buf, size_t cap, gs_error *err)
{
    char *demangled;
    if (gs_demangle(name, strlen(name), &demangled, err) != 0)
        return -1;
    const char *start;
    size_t len = gs_kernel_function(demangled ? demangled : name, &start);
    snprintf(buf, cap, "%.*s", (int)len, start);
    free(demangled);
    return 0;
}

/* How many launches of `function` ncu sees before the middle launch of row r, into *before: the
 * kernels of the trace are in start order. 0, or -1 with err. */
static int launches_before_middle(const gs_trace *t, const gs_kernel_row *r, const char *function,
                                  size_t *before, gs_error *err)
{
    size_t seen = 0, middle = r->time.count / 2;
    char buf[1024];
    *before = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        const char *name = gs_trace_str(t, k->name);
        bool same_row = !strcmp(name, r->name) && !memcmp(k->grid, r->grid, sizeof k->grid) &&
                        !memcmp(k->block, r->block, sizeof k->block);
        if (same_row && seen++ == middle)
            return 0;
        if (function_name(name, buf, sizeof buf, err) != 0)
            return -1;
        *before += !strcmp(buf, function);
    }
    return 0;
}

/* Whether `prog` is an executable on PATH. */
static bool on_path(const char *prog)
{
    gs_error err;
    return gs_child_check(prog, &err) == 0;
}

/* ncu and its arguments before COMMAND, for one target: what runs and what --dry-run prints. */
enum { NHEAD = 14 };
typedef struct ncu_head {
    const char *arg[NHEAD];
    char skip[32];
} ncu_head;

static void head_fill(ncu_head *h, const target *tg, const char *set, const char *part)
{
    snprintf(h->skip, sizeof h->skip, "%zu", tg->skip);
    const char *arg[NHEAD] = {"ncu", "--csv", "--page", "details", "--set", set, "--kernel-name",
                              tg->regex, "--launch-skip", h->skip, "--launch-count", "1",
                              "--log-file", part};
    memcpy(h->arg, arg, sizeof arg);
}

static int run_one(const target *tg, const char *set, const char *part, char **program)
{
    size_t n = 0;
    while (program[n])
        n++;
    ncu_head h;
    head_fill(&h, tg, set, part);
    char **all = malloc((NHEAD + n + 1) * sizeof *all);
    if (!all)
        return gs_cli_out_of_memory();
    for (size_t i = 0; i < NHEAD; i++)
        all[i] = (char *)h.arg[i];
    for (size_t i = 0; i < n; i++)
        all[NHEAD + i] = program[i];
    all[NHEAD + n] = NULL;
    pid_t pid;
    gs_error err;
    int rc;
    if (gs_child_start(all, &pid, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_child_forward_signals(pid);
        rc = gs_child_wait(pid);
    }
    free(all);
    return rc;
}

/* The command line run_one runs, for a shell: every argument quoted as it needs, since kernel
 * names come from the trace and could otherwise end the quotes and run commands of their own. */
static void print_command(const target *tg, const char *set, char **program)
{
    ncu_head h;
    head_fill(&h, tg, set, "PART");
    for (size_t i = 0; i < NHEAD; i++) {
        fputs(i ? " " : "", stdout);
        gs_shell_word_write(stdout, h.arg[i]);
    }
    for (size_t i = 0; program[i]; i++) {
        putchar(' ');
        gs_shell_word_write(stdout, program[i]);
    }
    putchar('\n');
}

/* Appends part to out and removes part. */
static int append_part(const char *part, FILE *out)
{
    FILE *in = fopen(part, "r");
    if (!in)
        return -1;
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, got, out) != got)
            break;
    bool bad = ferror(in) || ferror(out);
    fclose(in);
    remove(part);
    return bad ? -1 : 0;
}

/* Picks the targets from the first selected trace. */
static int pick_targets(const gs_profile *p, const gs_kernel_summary *ks, size_t top,
                        target *tg, size_t *ntg, gs_error *err)
{
    const gs_trace *t = p->traces.v[0];
    *ntg = 0;
    for (size_t i = 0; i < ks->nrows && *ntg < top; i++) {
        char fn[1024], esc[2200];
        if (function_name(ks->rows[i].name, fn, sizeof fn, err) != 0)
            return -1;
        put_escaped(esc, sizeof esc, fn, strlen(fn));
        size_t len = strlen(esc) + 16;
        tg[*ntg].regex = malloc(len);
        if (!tg[*ntg].regex)
            return gs_fail_oom(err);
        snprintf(tg[*ntg].regex, len, "regex:^%s$", esc);
        if (launches_before_middle(t, &ks->rows[i], fn, &tg[*ntg].skip, err) != 0) {
            free(tg[*ntg].regex);
            return -1;
        }
        tg[*ntg].name = ks->rows[i].name;
        (*ntg)++;
    }
    return 0;
}

/* The kernels of the whole of every trace, by launch, as ncu profiles them. */
static int kernels_by_launch(const gs_profile *p, gs_kernel_summary *ks, gs_error *err)
{
    if (gs_kernel_summary_init(ks, true, err) != 0)
        return -1;
    const gs_ctx_opts whole = {0};
    for (size_t i = 0; i < p->traces.n; i++) {
        gs_trace_ctx c;
        if (gs_trace_ctx_build(p->traces.v[i], &whole, &c, err) != 0) {
            gs_kernel_summary_free(ks);
            return -1;
        }
        int rc = gs_kernel_summary_add(ks, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    return gs_kernel_summary_finish(ks, err);
}

static int measure(const gs_cli *cli, const gs_profile *p, char **program, size_t top,
                   const char *set, const char *output, bool dry_run)
{
    gs_error err;
    gs_kernel_summary ks;
    if (kernels_by_launch(p, &ks, &err) != 0)
        return gs_cli_fail(&err);
    target *tg = calloc(top ? top : 1, sizeof *tg);
    size_t ntg = 0;
    int rc = GS_EXIT_OK;
    if (!tg)
        rc = gs_cli_out_of_memory();
    else if (pick_targets(p, &ks, top, tg, &ntg, &err) != 0)
        rc = gs_cli_fail(&err);
    if (rc == GS_EXIT_OK && ntg == 0) {
        gs_say("ncu: the trace has no GPU kernels to measure");
        rc = GS_EXIT_INPUT;
    }
    if (rc == GS_EXIT_OK && dry_run) {
        for (size_t i = 0; i < ntg; i++)
            print_command(&tg[i], set, program);
    } else if (rc == GS_EXIT_OK) {
        gs_output out;
        bool opened = gs_output_open(&out, output, &err) == 0;
        if (!opened)
            rc = gs_cli_fail(&err);
        size_t failed = 0;
        char part[4096];
        snprintf(part, sizeof part, "%s.part", output);
        for (size_t i = 0; opened && i < ntg; i++) {
            gs_say("ncu: %zu of %zu: %s (launch-skip %zu)", i + 1, ntg, tg[i].name, tg[i].skip);
            int run = run_one(&tg[i], set, part, program);
            if (run != 0) {
                gs_say("ncu: the run for %s exited %d", tg[i].regex, run);
                failed++;
            }
            if (append_part(part, out.f) != 0 && run == 0)
                failed++;
        }
        if (opened && gs_output_close(&out, true, &err) != 0)
            rc = gs_cli_fail(&err);
        if (opened && rc == GS_EXIT_OK) {
            gs_ncu_report report;
            gs_ncu_join join;
            gs_kernel_summary joined;
            if (gs_ncu_read(output, &report, &err) != 0) {
                rc = gs_cli_fail(&err);
            } else {
                if (kernels_by_launch(p, &joined, &err) != 0 ||
                    gs_ncu_join_build(&joined, &report, &join, &err) != 0) {
                    rc = gs_cli_fail(&err);
                } else {
                    gs_text_style style = gs_cli_text_style();
                    if (gs_render_ncu(stdout, &join, cli->format, &style, 0, -1, false) != 0)
                        rc = gs_cli_out_of_memory();
                    gs_ncu_join_free(&join);
                }
                gs_ncu_report_free(&report);
            }
            if (rc == GS_EXIT_OK && failed)
                rc = GS_EXIT_FINDING;
        }
    }
    for (size_t i = 0; tg && i < ntg; i++)
        free(tg[i].regex);
    free(tg);
    gs_kernel_summary_free(&ks);
    return rc;
}

int cmd_ncu(int argc, char **argv)
{
    size_t top = 3;
    const char *set = "detailed", *output = "gpuscope-ncu.csv";
    bool dry_run = false;
    const gs_cli_flag flags[] = {
        {"dry-run", &dry_run, .help = "print the ncu command lines and run nothing"},
    };
    const gs_cli_count counts[] = {
        {"top", &top, 64, 0, .arg = "N", .help = "kernels to measure (default 3)"},
    };
    const gs_cli_text texts[] = {
        {"set", &set, 0, .arg = "SET", .help = "ncu's section set (default detailed)"},
        {"output", &output, 'o', .arg = "FILE",
         .help = "the CSV of all runs, one after the other (default\n"
                 "gpuscope-ncu.csv); read it again with kernels --ncu"},
    };
    const gs_cli_spec spec = {
        .command = "ncu",
        .help = {.intro = ncu_intro, .order = help_order, .parts = help_parts,
                 .nparts = COUNT_OF(help_parts)},
        .operands = GS_CLI_PROGRAM, .csv = true, .no_limit = true, .flags = flags, .nflags = 1,
        .counts = counts, .ncounts = 1, .texts = texts, .ntexts = 2};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    char **program = cli.program + 1;
    if (*program && !strcmp(*program, "--"))
        program++;
    if (!*program)
        return gs_cli_usage("ncu", "%s", "no COMMAND to run after TRACE");
    if (top == 0)
        return gs_cli_usage("ncu", "%s", "--top must be at least 1");
    gs_error err;
    if (!dry_run && gs_output_check_inputs(output, (const char *const *)cli.program, 1, &err) != 0)
        return gs_cli_fail(&err);
    if (!dry_run && !on_path("ncu")) {
        fputs("gpuscope: ncu: Nsight Compute's 'ncu' is not on PATH: install it (part of the "
              "CUDA toolkit) or add its folder to PATH; 'gpuscope kernels --ncu FILE.csv' reads "
              "an export made elsewhere\n",
              stderr);
        return GS_EXIT_ENV;
    }
    cli.paths = (const char *const *)cli.program;
    cli.npaths = 1;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    rc = measure(&cli, &profile, program, top, set, output, dry_run);
    gs_profile_free(&profile);
    return rc;
}
