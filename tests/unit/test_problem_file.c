/* The problem files of bench_scenes' BENCH_CAPTURE and bench_replay (tests/support/
   problem_file.h): problems come back bit for bit and in order, the end of the file is told
   apart from a damaged record, and a damaged record is refused with a message, not read. */
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "problem_file.h"
#include "problem_gen.h"

static ipx_scene scenes[2];

static int same_problem(const ipx_problem *a, const ipx_problem *b)
{
    const size_t rows = 3 * (size_t)a->k;
    return a->k == b->k && a->flags == b->flags &&
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
    FILE *f = tmpfile();
    ENSURE(f != NULL);
    if (!f) return NULL;
    ENSURE(problem_file_write(f, &scenes[0].problem) == 0);
    ENSURE(problem_file_write(f, &scenes[1].problem) == 0);
    rewind(f);
    return f;
}

static void test_round_trip(void)
{
    FILE *f = written();
    if (!f) return;
    char message[128] = "";
    for (int i = 0; i < 2; i++) {
        problem_record rec;
        ENSURE(problem_file_read(f, &rec, message, sizeof message) == 1);
        ENSURE(same_problem(&rec.problem, &scenes[i].problem));
        problem_file_free(&rec);
    }
    problem_record end;
    ENSURE(problem_file_read(f, &end, message, sizeof message) == 0); /* the end, not an error */
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
    problem_record rec;
    for (int i = 0; i < good_records; i++) {
        ENSURE(problem_file_read(f, &rec, message, sizeof message) == 1);
        problem_file_free(&rec);
    }
    ENSURE(problem_file_read(f, &rec, message, sizeof message) == -1);
    ENSURE(rec.W == NULL && rec.v == NULL && rec.contact == NULL);
    ENSURE(strstr(message, said) != NULL);
    if (!strstr(message, said)) fprintf(stderr, "message: %s\n", message);
    fclose(f);
}

static void test_damaged_records(void)
{
    const long first = 4 + 4 + 4 + 8 * (81 + 9 + 12); /* bytes of the k = 3 record */
    expect_refused(damaged(0, 0, 'X'), 0, "no IPXP header");
    expect_refused(damaged(first + 2, 0, 'Q'), 1, "no IPXP header");
    /* k's most significant byte on a little-endian machine: k = 2^31 - 2^24 + 3, not 1..4096 */
    expect_refused(damaged(4 + 3, 0, 0x7f), 0, "claims");
    expect_refused(damaged(first + 40, 1, 0), 1, "cut short");     /* inside the second W */
    expect_refused(damaged(first + 6, 1, 0), 1, "no IPXP header"); /* inside its header */
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_damaged_records);
    return ipx_test_exit();
}
