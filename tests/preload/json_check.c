/* Recursive descent over RFC 8259's grammar; values are checked, not built. */
#include "json_check.h"

#include <string.h>

static const char *value(const char *p, int depth);

static const char *space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static const char *string(const char *p)
{
    if (*p++ != '"') return NULL;
    for (; *p != '"'; p++) {
        if ((unsigned char)*p < 0x20) return NULL; /* also the end of the text */
        if (*p != '\\') continue;
        p++;
        if (*p == 'u') {
            for (int i = 1; i <= 4; i++)
                if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
            p += 4;
        } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
            return NULL;
        }
    }
    return p + 1;
}

static const char *digits(const char *p)
{
    if (*p < '0' || *p > '9') return NULL;
    while (*p >= '0' && *p <= '9') p++;
    return p;
}

static const char *number(const char *p)
{
    if (*p == '-') p++;
    if (*p == '0') p++;
    else if (!(p = digits(p))) return NULL;
    if (*p == '.' && !(p = digits(p + 1))) return NULL;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(p = digits(p))) return NULL;
    }
    return p;
}

/* [ ... ] or { ... }: items separated by commas; objects take "key": before each value. */
static const char *container(const char *p, char close, int depth)
{
    p = space(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
        if (close == '}') {
            if (!(p = string(p))) return NULL;
            p = space(p);
            if (*p++ != ':') return NULL;
        }
        if (!(p = value(p, depth + 1))) return NULL;
        p = space(p);
        if (*p == close) return p + 1;
        if (*p++ != ',') return NULL;
        p = space(p);
    }
}

static const char *value(const char *p, int depth)
{
    if (depth > 64) return NULL;
    p = space(p);
    switch (*p) {
    case '{': return container(p, '}', depth);
    case '[': return container(p, ']', depth);
    case '"': return string(p);
    case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default: return number(p);
    }
}

int json_check_object(const char *text)
{
    const char *p = space(text);
    if (*p != '{') return 0;
    p = value(p, 0);
    return p && *space(p) == '\0';
}
