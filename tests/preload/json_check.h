/// A strict JSON syntax check (RFC 8259) for the trace test: no dependency for one question.
#ifndef IMPAX_TEST_JSON_CHECK_H
#define IMPAX_TEST_JSON_CHECK_H

/// 1 if text is exactly one JSON object (whitespace around it allowed), else 0.
int json_check_object(const char *text);

#endif
