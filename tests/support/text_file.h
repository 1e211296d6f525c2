/// Whole text files, for the tests and their support code (the CLI tests' outputs, the world
/// copies of toss_gen.h).
#ifndef IMPAX_TEST_TEXT_FILE_H
#define IMPAX_TEST_TEXT_FILE_H

#include <stddef.h>

/// The whole file (malloc'd, NUL-terminated), or NULL; its length in *size (size may be NULL).
char *read_file(const char *path, size_t *size);

#endif
