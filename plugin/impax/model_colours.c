/* The model colour table (model_colours.h). Colours from the Tableau/d3 "category10" set, which
   read well on white and stay apart from each other under the pages' grey lighting; ode keeps
   the orange the first --html page gave it. */
#include "model_colours.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned char rgb[3];
} table[MODEL_COLOURS_NAMED] = {
    {"ode", {0xe6, 0x55, 0x0d}},      /* orange */
    {"plus", {0x1f, 0x77, 0xb4}},     /* blue */
    {"routh", {0x2c, 0xa0, 0x2c}},    /* green */
    {"aplcp", {0x94, 0x67, 0xbd}},    /* purple */
    {"bowling", {0xd6, 0x27, 0x28}},  /* red */
    {"jia", {0x17, 0xbe, 0xcf}},      /* cyan */
    {"gonthier", {0xe3, 0x77, 0xc2}}, /* pink */
    {"recorded", {0x33, 0x33, 0x33}}, /* near black: the measurement */
};

/* For names outside the table: olive, brown, grey-blue, dark teal. */
static const unsigned char extra[][3] = {
    {0xbc, 0xbd, 0x22}, {0x8c, 0x56, 0x4b}, {0x6b, 0x6e, 0xcf}, {0x00, 0x6d, 0x5b}};

/* The length of the model name label starts with: letters, digits, '_' and '-'. */
static size_t name_length(const char *label)
{
    size_t n = 0;
    while ((label[n] >= 'a' && label[n] <= 'z') || (label[n] >= 'A' && label[n] <= 'Z') ||
           (label[n] >= '0' && label[n] <= '9') || label[n] == '_' || label[n] == '-')
        n++;
    return n;
}

void model_colour(const char *label, unsigned char rgb[3])
{
    const size_t n = name_length(label);
    for (int i = 0; i < MODEL_COLOURS_NAMED; i++)
        if (strlen(table[i].name) == n && strncmp(table[i].name, label, n) == 0) {
            memcpy(rgb, table[i].rgb, 3);
            return;
        }
    unsigned hash = 5381; /* djb2: stable across runs and machines */
    for (size_t i = 0; i < n; i++) hash = hash * 33u + (unsigned char)label[i];
    memcpy(rgb, extra[hash % (sizeof extra / sizeof extra[0])], 3);
}

void model_colour_hex(const char *label, char hex[8])
{
    unsigned char c[3];
    model_colour(label, c);
    snprintf(hex, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

const char *model_colour_name(int i)
{
    return i >= 0 && i < MODEL_COLOURS_NAMED ? table[i].name : NULL;
}
