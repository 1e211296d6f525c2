/// One colour per model name for every picture impax makes: the --html pages (through their
/// embedded data), ab's, replay's and sweep's PNG plots. A label names its model by its text up
/// to the first character a model name cannot hold ("plus:e=0.5" and "plus e=0.5" are plus's);
/// "recorded" is a recording's colour. The table is the only one: no page or plot keeps its own.
#ifndef IMPAX_CLI_MODEL_COLOURS_H
#define IMPAX_CLI_MODEL_COLOURS_H

#include <stddef.h>

/// Names the table holds, in its order (the models, then "recorded").
enum { MODEL_COLOURS_NAMED = 8 };

/// The colour (0..255 red, green, blue) of label's model. A model name outside the table gets
/// one of a few further colours chosen by a hash of the name: the same name, the same colour.
void model_colour(const char *label, unsigned char rgb[3]);

/// The colour as "#rrggbb" into hex (8 bytes with the terminating zero).
void model_colour_hex(const char *label, char hex[8]);

/// The table's i-th name (0 <= i < MODEL_COLOURS_NAMED), for tests and documentation.
const char *model_colour_name(int i);

#endif
