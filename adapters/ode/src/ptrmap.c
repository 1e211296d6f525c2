/* Pointer -> index map with open addressing. Each entry carries the epoch it was written in,
   so emptying the map is one increment (it is emptied for every island). */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"

static unsigned slot_of(const void *key, int cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (unsigned)h & (unsigned)(cap - 1);
}

void ipx_ode_map_free(ptr_map *m)
{
    free(m->key);
    free(m->value);
    free(m->epoch);
    *m = (ptr_map){0};
}

void ipx_ode_map_reset(ptr_map *m)
{
    m->count = 0;
    if (++m->now == 0) { /* wrapped: old stamps could look current */
        for (int i = 0; i < m->cap; i++) m->epoch[i] = 0;
        m->now = 1;
    }
}

int ipx_ode_map_get(const ptr_map *m, const void *key)
{
    if (m->cap == 0) return -1;
    for (unsigned i = slot_of(key, m->cap);; i = (i + 1) & (unsigned)(m->cap - 1)) {
        if (m->epoch[i] != m->now) return -1;
        if (m->key[i] == key) return m->value[i];
    }
}

static void insert(ptr_map *m, const void *key, int value)
{
    unsigned i = slot_of(key, m->cap);
    while (m->epoch[i] == m->now && m->key[i] != key) i = (i + 1) & (unsigned)(m->cap - 1);
    if (m->epoch[i] != m->now) m->count++;
    m->key[i] = key;
    m->value[i] = value;
    m->epoch[i] = m->now;
}

/* Doubles the table and re-inserts the current entries. */
static int rehash(ptr_map *m)
{
    int cap = m->cap ? 2 * m->cap : 64;
    ptr_map bigger = {calloc((size_t)cap, sizeof(void *)),
                      calloc((size_t)cap, sizeof(int)),
                      calloc((size_t)cap, sizeof(unsigned)),
                      cap,
                      0,
                      1};
    if (!bigger.key || !bigger.value || !bigger.epoch) {
        ipx_ode_map_free(&bigger);
        return -1;
    }
    for (int i = 0; i < m->cap; i++)
        if (m->epoch[i] == m->now) insert(&bigger, m->key[i], m->value[i]);
    ipx_ode_map_free(m);
    *m = bigger;
    return 0;
}

int ipx_ode_map_put(ptr_map *m, const void *key, int value)
{
    if (m->cap == 0 || 2 * (m->count + 1) > m->cap) {
        if (m->now == 0) m->now = 1;
        if (rehash(m) != 0) return -1;
    }
    insert(m, key, value);
    return 0;
}
