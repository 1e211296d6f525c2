/* The text rules of "key=value,..." parameter lists, shared by the registry (ipx_params_parse)
   and by the hosts' own keys (the ODE adapter's, the world's contact keys): items, white space,
   numbers, the split of a host's keys from the model's, and how user text is quoted in a
   message. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"

void ipx_printable(const char *text, size_t n, char *out, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    size_t used = 0;
    if (!size) return;
    for (size_t i = 0; i < n && text[i]; i++) {
        const unsigned char c = (unsigned char)text[i];
        char esc[5] = {(char)c, 0, 0, 0, 0};
        if (c == '\n') memcpy(esc, "\\n", 3);
        else if (c == '\t') memcpy(esc, "\\t", 3);
        else if (c == '\r') memcpy(esc, "\\r", 3);
        else if (c < 0x20 || c == 0x7f) {
            esc[0] = '\\';
            esc[1] = 'x';
            esc[2] = hex[c >> 4];
            esc[3] = hex[c & 15];
        }
        const size_t len = strlen(esc);
        if (used + len >= size) break;
        memcpy(out + used, esc, len);
        used += len;
    }
    out[used] = '\0';
}

static int blank(char c) { return isspace((unsigned char)c) != 0; }

/* [*b, *e) without white space (blanks, tabs, newlines) at either end. */
static void trim(const char **b, const char **e)
{
    while (*b < *e && blank(**b)) (*b)++;
    while (*e > *b && blank((*e)[-1])) (*e)--;
}

static int all_blank(const char *s)
{
    while (*s && blank(*s)) s++;
    return *s == '\0';
}

/* Every comma separates two items, so a list never starts or ends with one. */
static int empty_item(const char *text, char *message, size_t message_size)
{
    char shown[160];
    ipx_printable(text, strlen(text), shown, sizeof shown);
    snprintf(message, message_size,
             "empty item (a leading, trailing or doubled comma) in parameter list '%s'", shown);
    return -1;
}

int ipx_params_next(const char *text, const char **cursor, ipx_param_item *item, char *message,
                    size_t message_size)
{
    const char *s = *cursor;
    if (!s || !*s || (s == text && all_blank(s))) return 0; /* the end; "" or blanks: no items */
    const char *comma = strchr(s, ',');
    const char *end = comma ? comma : s + strlen(s);
    const char *b = s, *e = end;
    trim(&b, &e);
    if (b == e) return empty_item(text, message, message_size);
    const char *eq = memchr(b, '=', (size_t)(e - b));
    char item_text[96];
    ipx_printable(b, (size_t)(e - b), item_text, sizeof item_text);
    if (!eq) {
        snprintf(message, message_size, "parameter item '%s' is not key=value", item_text);
        return -1;
    }
    const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    trim(&kb, &ke);
    trim(&vb, &ve);
    if (kb == ke || vb == ve) {
        snprintf(message, message_size, "parameter item '%s' has an empty key or value", item_text);
        return -1;
    }
    item->key = kb;
    item->key_len = (size_t)(ke - kb);
    item->value = vb;
    item->value_len = (size_t)(ve - vb);
    /* a comma ends this item and promises another: "a=1," has an empty last item */
    *cursor = comma ? comma + 1 : end;
    if (comma && all_blank(*cursor)) return empty_item(text, message, message_size);
    return 1;
}

int ipx_param_item_is(const ipx_param_item *item, const char *key)
{
    return strlen(key) == item->key_len && strncmp(item->key, key, item->key_len) == 0;
}

/* Appends "key=value" to rest as one more comma-separated item: 0, or -1 if it does not fit. */
static int append_item(const ipx_param_item *item, char *rest, size_t rest_size, size_t *used,
                       char *message, size_t message_size)
{
    const size_t n = item->key_len + 1 + item->value_len;
    if (*used + n + 2 > rest_size) {
        snprintf(message, message_size, "parameters too long (%zu characters at most)",
                 rest_size ? rest_size - 1 : 0);
        return -1;
    }
    *used += (size_t)snprintf(rest + *used, rest_size - *used, "%s%.*s=%.*s", *used ? "," : "",
                              (int)item->key_len, item->key, (int)item->value_len, item->value);
    return 0;
}

int ipx_params_split(const char *text, ipx_param_take_fn take, void *user, char *rest,
                     size_t rest_size, char *message, size_t message_size)
{
    size_t used = 0;
    if (rest_size) rest[0] = '\0';
    ipx_param_item item;
    const char *cursor = text;
    int got;
    while ((got = ipx_params_next(text, &cursor, &item, message, message_size)) > 0) {
        const int taken = take(user, &item, message, message_size);
        if (taken < 0 ||
            (!taken && append_item(&item, rest, rest_size, &used, message, message_size) != 0))
            return -1;
    }
    return got < 0 ? -1 : 0;
}

ipx_status ipx_param_number(const ipx_param_item *item, double *out, char *message,
                            size_t message_size)
{
    char key[64], value[128], shown[96];
    ipx_printable(item->key, item->key_len, key, sizeof key);
    ipx_printable(item->value, item->value_len, shown, sizeof shown);
    if (item->value_len >= sizeof value) {
        snprintf(message, message_size,
                 "parameter %s: '%.40s...' is too long for a number (%zu characters "
                 "at most)",
                 key, shown, sizeof value - 1);
        return IPX_ERR_INPUT;
    }
    memcpy(value, item->value, item->value_len);
    value[item->value_len] = '\0';
    char *stop = NULL;
    errno = 0;
    const double v = strtod(value, &stop);
    if (stop == value || *stop != '\0') {
        snprintf(message, message_size, "parameter %s: '%s' is not a number", key, shown);
        return IPX_ERR_INPUT;
    }
    if (errno == ERANGE && fabs(v) <= DBL_MIN) {
        snprintf(message, message_size,
                 "parameter %s: '%s' underflows (a nonzero magnitude below %g is "
                 "not representable; write 0 if zero is meant)",
                 key, shown, DBL_MIN);
        return IPX_ERR_INPUT;
    }
    if (errno == ERANGE) {
        snprintf(message, message_size,
                 "parameter %s: '%s' overflows (magnitudes above %g are not "
                 "representable)",
                 key, shown, DBL_MAX);
        return IPX_ERR_INPUT;
    }
    *out = v;
    return IPX_OK;
}
