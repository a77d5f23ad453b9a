/*
 * test_configs.h - the default geometry and configurations by name, for
 * tests. A geometry or a name the library refuses is the test's own bug,
 * not a finding: it prints the library's message and stops the test
 * (exit 1).
 */
#ifndef STC_TEST_CONFIGS_H
#define STC_TEST_CONFIGS_H

#include "config.h"
#include "geometry.h"

#include <stdio.h>
#include <stdlib.h>

/* The paper's cache: stc_geometry_default, initialised. */
static inline stc_geometry default_geometry(void)
{
    stc_geometry geometry;
    char err[256];
    stc_geometry_default(&geometry);
    if (stc_geometry_init(&geometry, err, sizeof err) != 0) {
        fprintf(stderr, "default geometry: %s\n", err);
        exit(1);
    }
    return geometry;
}

/* The configuration called name (e.g. "8K_2W_32B_P") of geometry. */
static inline stc_config config_named(const stc_geometry *geometry, const char *name)
{
    stc_config config;
    char err[256];
    if (stc_config_parse(geometry, name, &config, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", name, err);
        exit(1);
    }
    return config;
}

/* The default geometry's configuration called name. */
static inline stc_config default_config(const char *name)
{
    stc_geometry geometry = default_geometry();
    return config_named(&geometry, name);
}

#endif
