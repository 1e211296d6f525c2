/* The problem files of the shim's IMPAX_CAPTURE, bench_scenes' BENCH_CAPTURE and bench_replay
   (impax/problem_file.h): problems come back bit for bit and in order, v_tol with them, records
   of the first format (no v_tol) are still read, the end of the file is told apart from a
   damaged record, and a damaged record is refused with a message, not read. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/problem_file.h"
#include "problem_gen.h"

static ipx_scene scenes[2];

static int same_problem(const ipx_problem *a, const ipx_problem *b)
{
    const size_t rows = 3 * (size_t)a->k;
    return a->k == b->k && a->flags == b->flags && a->v_tol == b->v_tol &&
           memcmp(a->W, b->W, sizeof(double) * rows * rows) == 0 &&
           memcmp(a->v, b->v, sizeof(double) * rows) == 0 &&
           memcmp(a->contact, b->contact, sizeof(ipx_contact) * (size_t)a->k) == 0;
}

/* Two random problems written to f (k = 3 and 7, one with the assembled flag). */
static FILE *written(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 11);
    const ipx_gen_options opt = ipx_gen_default_options();
    ipx_gen_random(&scenes[0], 3, &opt, &rng);
    ipx_gen_random(&scenes[1], 7, &opt, &rng);
    scenes[1].problem.flags = IPX_PROBLEM_W_ASSEMBLED;
    scenes[1].problem.v_tol = 0.0981; /* m/s: |g| h at h = 10 ms */
    FILE *f = tmpfile();
    ENSURE(f != NULL);
    if (!f) return NULL;
    ENSURE(ipx_problem_write(f, &scenes[0].problem) == 0);
    ENSURE(ipx_problem_write(f, &scenes[1].problem) == 0);
    rewind(f);
    return f;
}

static void test_round_trip(void)
{
    FILE *f = written();
    if (!f) return;
    char message[128] = "";
    for (int i = 0; i < 2; i++) {
        ipx_problem_record rec;
        ENSURE(ipx_problem_read(f, &rec, message, sizeof message) == 1);
        ENSURE(same_problem(&rec.problem, &scenes[i].problem));
        ipx_problem_record_free(&rec);
    }
    ipx_problem_record end;
    ENSURE(ipx_problem_read(f, &end, message, sizeof message) == 0); /* the end, not an error */
    ENSURE(end.W == NULL);
    fclose(f);
}

/* The bytes of the two-problem file with the byte at `at` replaced (or the file cut there). */
static FILE *damaged(long at, int cut, unsigned char byte)
{
    FILE *src = written();
    if (!src) return NULL;
    fseek(src, 0, SEEK_END);
    const long size = ftell(src);
    rewind(src);
    unsigned char *bytes = malloc((size_t)size);
    FILE *f = tmpfile();
    if (bytes && f && fread(bytes, 1, (size_t)size, src) == (size_t)size) {
        if (!cut) bytes[at] = byte;
        fwrite(bytes, 1, cut ? (size_t)at : (size_t)size, f);
        rewind(f);
    }
    free(bytes);
    fclose(src);
    return f;
}

static void expect_refused(FILE *f, int good_records, const char *said)
{
    if (!f) return;
    char message[128] = "";
    ipx_problem_record rec;
    for (int i = 0; i < good_records; i++) {
        ENSURE(ipx_problem_read(f, &rec, message, sizeof message) == 1);
        ipx_problem_record_free(&rec);
    }
    ENSURE(ipx_problem_read(f, &rec, message, sizeof message) == -1);
    ENSURE(rec.W == NULL && rec.v == NULL && rec.contact == NULL);
    ENSURE(strstr(message, said) != NULL);
    if (!strstr(message, said)) fprintf(stderr, "message: %s\n", message);
    fclose(f);
}

static void test_damaged_records(void)
{
    const long first = 4 + 4 + 4 + 8 + 8 * (81 + 9 + 12); /* bytes of the k = 3 record */
    expect_refused(damaged(0, 0, 'X'), 0, "not a problem record");
    expect_refused(damaged(first + 2, 0, 'Q'), 1, "not a problem record");
    /* k's most significant byte on a little-endian machine: k = 2^31 - 2^24 + 3, not 1..4096 */
    expect_refused(damaged(4 + 3, 0, 0x7f), 0, "claims");
    expect_refused(damaged(first + 40, 1, 0), 1, "cut short");           /* inside the second W */
    expect_refused(damaged(first + 6, 1, 0), 1, "not a problem record"); /* inside its header */
}

/* A record of the first format ("IPXP": no v_tol), as bench captures wrote before: read, with
   v_tol 0. */
static void test_first_format_is_read(void)
{
    const ipx_problem *p = &scenes[0].problem; /* made by written() in the tests before */
    const size_t rows = 3 * (size_t)p->k;
    const int32_t k = p->k;
    const uint32_t flags = p->flags;
    FILE *f = tmpfile();
    ENSURE(f != NULL);
    if (!f) return;
    fwrite("IPXP", 1, 4, f);
    fwrite(&k, sizeof k, 1, f);
    fwrite(&flags, sizeof flags, 1, f);
    fwrite(p->W, sizeof(double), rows * rows, f);
    fwrite(p->v, sizeof(double), rows, f);
    for (int i = 0; i < p->k; i++) {
        const double d[4] = {p->contact[i].mu, p->contact[i].e, p->contact[i].v_capture,
                             p->contact[i].v_plastic};
        fwrite(d, sizeof(double), 4, f);
    }
    rewind(f);
    char message[128] = "";
    ipx_problem_record rec;
    ENSURE(ipx_problem_read(f, &rec, message, sizeof message) == 1);
    ENSURE(same_problem(&rec.problem, p)); /* p's v_tol is 0 */
    ipx_problem_record_free(&rec);
    fclose(f);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_damaged_records);
    RUN(test_first_format_is_read);
    return ipx_test_exit();
}
