/*
 * test_search.c - the search state machine (search.h) on hand-built energy
 * landscapes: the heuristic's exact sequence of examined candidates and its
 * choice for the seed's order, the seed's other order, descending walks and
 * ties; the mpeg2 case (the size walk stops at 4K because 8K_1W is not
 * cheaper, so the heuristic misses 8K_2W, which exhaustive finds);
 * exhaustive equals a brute-force minimum; invariants of every order on
 * random landscapes and other geometries.
 */
#include "check.h"
#include "test_configs.h"
#include "config.h"
#include "geometry.h"
#include "search.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { TRAIL_LEN = 2048 };

/* An energy landscape: a function from configuration to energy. */
typedef double (*landscape_fn)(const stc_geometry *geometry, const stc_config *config,
                               const void *context);

/* A landscape given as a table of names; every other configuration costs
 * `otherwise`. */
typedef struct {
    const char *name;
    double energy;
} named_energy;

typedef struct {
    const named_energy *entries;
    size_t count;
    double otherwise;
} named_landscape;

static double named_energy_of(const stc_geometry *geometry, const stc_config *config,
                              const void *context)
{
    const named_landscape *landscape = context;
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, config, name, sizeof name);
    for (size_t index = 0; index < landscape->count; index++) {
        if (!strcmp(landscape->entries[index].name, name)) {
            return landscape->entries[index].energy;
        }
    }
    return landscape->otherwise;
}

/* Run a search to the end; the examined names, space separated, go to
 * trail. Also checks what every search must do: legal candidates, each
 * handed out once, the best energy reported the best configuration's. */
static stc_config run_search(const stc_geometry *geometry, const stc_search_plan *plan,
                             landscape_fn energy_of, const void *context, char *trail,
                             size_t *examined)
{
    char err[256];
    stc_search search;
    stc_config candidate;
    trail[0] = '\0';
    CHECK(stc_search_start(&search, geometry, plan, err, sizeof err) == 0, "start: %s", err);
    size_t handed_out = 0;
    size_t illegal = 0, unstable = 0;
    while (stc_search_next(&search, &candidate)) {
        illegal += stc_config_check(geometry, &candidate) != NULL;
        /* Asking again before reporting returns the same candidate. */
        stc_config again;
        unstable += !stc_search_next(&search, &again) || !stc_config_equal(&again, &candidate);
        char name[STC_CONFIG_NAME_MAX];
        stc_config_name(geometry, &candidate, name, sizeof name);
        if (trail[0]) {
            strcat(trail, " ");
        }
        strcat(trail, name);
        CHECK(stc_search_report(&search, energy_of(geometry, &candidate, context)) == 0,
              "report refused");
        handed_out++;
        if (handed_out > STC_MAX_CONFIGS) {
            CHECK(0, "search does not end");
            break;
        }
    }
    CHECK_EQ_U64(illegal, 0, "illegal candidates handed out");
    CHECK_EQ_U64(unstable, 0, "next without a report changed the candidate");
    CHECK(stc_search_done(&search), "next returned false but the search is not done");
    CHECK(stc_search_report(&search, 1.0) == -1, "report accepted with nothing outstanding");
    const stc_search_entry *entries;
    *examined = stc_search_examined(&search, &entries);
    CHECK_EQ_U64(*examined, handed_out, "examined counts every candidate handed out");
    size_t repeats = 0;
    for (size_t left = 0; left < *examined; left++) {
        for (size_t right = left + 1; right < *examined; right++) {
            repeats += stc_config_equal(&entries[left].config, &entries[right].config);
        }
    }
    CHECK_EQ_U64(repeats, 0, "configurations examined twice");
    stc_config best = stc_search_best(&search);
    CHECK(stc_search_best_energy(&search) == energy_of(geometry, &best, context),
          "best energy is not the best configuration's");
    return best;
}

static void check_trail(const stc_geometry *geometry, const stc_search_plan *plan,
                        const named_energy *entries, size_t count, const char *want_trail,
                        const char *want_best, const char *what)
{
    named_landscape landscape = {entries, count, 1000.0};
    char trail[TRAIL_LEN];
    size_t examined;
    stc_config best = run_search(geometry, plan, named_energy_of, &landscape, trail, &examined);
    char best_name[STC_CONFIG_NAME_MAX];
    stc_config_name(geometry, &best, best_name, sizeof best_name);
    CHECK(!strcmp(trail, want_trail), "%s: examined\n      %s\n want %s", what, trail, want_trail);
    CHECK(!strcmp(best_name, want_best), "%s: chose %s, want %s", what, best_name, want_best);
}

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* The seed's order: size 2K -> 4K (drops) -> 8K (not lower: keep 4K); line
 * 32 (drops) -> 64 (not lower); ways 2 (drops), 4 illegal at 4K (walk
 * ends); way prediction on (not lower). Seven examined. */
static void test_seed_order(void)
{
    stc_geometry geometry = default_geometry();
    static const named_energy landscape[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 90}, {"8K_1W_16B", 95},
        {"4K_1W_32B", 80},  {"4K_1W_64B", 85}, {"4K_2W_32B", 70},
        {"4K_2W_32B_P", 75},
    };
    stc_search_plan plan = stc_search_plan_seed();
    check_trail(&geometry, &plan, landscape, COUNT_OF(landscape),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_1W_64B 4K_2W_32B 4K_2W_32B_P",
                "4K_2W_32B", "seed order");

    /* Every walk to its end, way prediction accepted: the jpeg I-cache row
     * of Table 1 (8K_4W_32B, 8 examined) and g721's _P. */
    static const named_energy all_the_way[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 90}, {"8K_1W_16B", 80},
        {"8K_1W_32B", 70},  {"8K_1W_64B", 75}, {"8K_2W_32B", 60},
        {"8K_4W_32B", 50},  {"8K_4W_32B_P", 40},
    };
    check_trail(&geometry, &plan, all_the_way, COUNT_OF(all_the_way),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 8K_1W_32B 8K_1W_64B 8K_2W_32B 8K_4W_32B "
                "8K_4W_32B_P",
                "8K_4W_32B_P", "seed order, walks to the end");

    /* Direct-mapped choice: no way-prediction step (a = 1). Table 1's crc
     * I-cache: 2K_1W_32B after 4 examined. */
    static const named_energy crc[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 110}, {"2K_1W_32B", 90}, {"2K_1W_64B", 95},
    };
    check_trail(&geometry, &plan, crc, COUNT_OF(crc),
                "2K_1W_16B 4K_1W_16B 2K_1W_32B 2K_1W_64B", "2K_1W_32B", "crc-like");
}

/* Equal energy does not lower: the walk stops and keeps the previous
 * value, in every walk. */
static void test_ties(void)
{
    stc_geometry geometry = default_geometry();
    stc_search_plan plan = stc_search_plan_seed();
    static const named_energy flat[] = {{"2K_1W_16B", 100}, {"4K_1W_16B", 100},
                                        {"2K_1W_32B", 100}};
    check_trail(&geometry, &plan, flat, COUNT_OF(flat), "2K_1W_16B 4K_1W_16B 2K_1W_32B",
                "2K_1W_16B", "ties stop every walk");
    static const named_energy tie_later[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 90}, {"8K_1W_16B", 90}, {"4K_1W_32B", 90},
        {"4K_2W_16B", 89},  {"4K_2W_16B_P", 89},
    };
    check_trail(&geometry, &plan, tie_later, COUNT_OF(tie_later),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_2W_16B 4K_2W_16B_P", "4K_2W_16B",
                "ties after a drop");

    /* Exhaustive on a tie keeps the first visited: canonical order
     * ascending, the reverse when descending. */
    stc_search_plan exhaustive = {.kind = STC_SEARCH_EXHAUSTIVE, .order = {0, 1, 2, 3}};
    static const named_energy two_minima[] = {{"4K_1W_32B", 5}, {"8K_2W_16B", 5}};
    named_landscape landscape = {two_minima, COUNT_OF(two_minima), 10};
    char trail[TRAIL_LEN];
    size_t examined;
    stc_config best = run_search(&geometry, &exhaustive, named_energy_of, &landscape, trail,
                                 &examined);
    CHECK(best.banks_on == 2 && best.sublines == 2, "exhaustive tie: first in canonical order");
    exhaustive.descending = true;
    best = run_search(&geometry, &exhaustive, named_energy_of, &landscape, trail, &examined);
    CHECK(best.banks_on == 4 && best.ways == 2, "exhaustive descending tie: first visited");
}

/* The seed's other order (section 7.3): line -> assoc -> wp -> size. It
 * starts at 2K, where only one way is legal, so the associativity walk ends
 * at once and the way-prediction step has nothing to try: after the line
 * walk only the size walk is left. */
static void test_other_order(void)
{
    stc_geometry geometry = default_geometry();
    stc_search_plan plan = {.kind = STC_SEARCH_HEURISTIC,
                            .order = {STC_PARAM_LINE, STC_PARAM_ASSOC, STC_PARAM_WAY_PREDICT,
                                      STC_PARAM_SIZE}};
    static const named_energy landscape[] = {
        {"2K_1W_16B", 100}, {"2K_1W_32B", 90}, {"2K_1W_64B", 80},
        {"4K_1W_64B", 70},  {"8K_1W_64B", 71}, {"4K_2W_64B", 10}, /* never reached */
    };
    check_trail(&geometry, &plan, landscape, COUNT_OF(landscape),
                "2K_1W_16B 2K_1W_32B 2K_1W_64B 4K_1W_64B 8K_1W_64B", "4K_1W_64B",
                "line,assoc,wp,size");

    /* The same landscape under the seed's order finds 4K_2W_64B. */
    stc_search_plan seed = stc_search_plan_seed();
    static const named_energy seed_view[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 95},  {"8K_1W_16B", 96}, {"4K_1W_32B", 85},
        {"4K_1W_64B", 70},  {"4K_2W_64B", 10},  {"4K_2W_64B_P", 11},
    };
    check_trail(&geometry, &plan, seed_view, COUNT_OF(seed_view),
                "2K_1W_16B 2K_1W_32B 4K_1W_16B 8K_1W_16B", "4K_1W_16B",
                "line,assoc,wp,size on the seed view");
    check_trail(&geometry, &seed, seed_view, COUNT_OF(seed_view),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_1W_64B 4K_2W_64B 4K_2W_64B_P",
                "4K_2W_64B", "seed order on the same view");

    /* Way prediction before associativity with assoc before size: wp is
     * tried only where it is legal, and only at its place in the order.
     * Order size,wp,assoc,line: at 8K_1W the wp step has nothing to try,
     * and it is not tried again after the ways grow. */
    stc_search_plan wp_early = {.kind = STC_SEARCH_HEURISTIC,
                                .order = {STC_PARAM_SIZE, STC_PARAM_WAY_PREDICT,
                                          STC_PARAM_ASSOC, STC_PARAM_LINE}};
    static const named_energy wp_landscape[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 90}, {"8K_1W_16B", 80},
        {"8K_2W_16B", 70},  {"8K_4W_16B", 75}, {"8K_2W_32B", 71}, {"8K_2W_16B_P", 1},
    };
    check_trail(&geometry, &wp_early, wp_landscape, COUNT_OF(wp_landscape),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 8K_2W_16B 8K_4W_16B 8K_2W_32B", "8K_2W_16B",
                "size,wp,assoc,line");
}

/* Large-to-small: start with everything at its largest (8K_4W_64B_P);
 * shrinking the size drags the ways down to the bank count and turns way
 * prediction off at one way. */
static void test_descending(void)
{
    stc_geometry geometry = default_geometry();
    stc_search_plan plan = stc_search_plan_seed();
    plan.descending = true;
    static const named_energy landscape[] = {
        {"8K_4W_64B_P", 100}, {"4K_2W_64B_P", 90}, {"2K_1W_64B", 80},
        {"2K_1W_32B", 70},    {"2K_1W_16B", 75},
    };
    check_trail(&geometry, &plan, landscape, COUNT_OF(landscape),
                "8K_4W_64B_P 4K_2W_64B_P 2K_1W_64B 2K_1W_32B 2K_1W_16B", "2K_1W_32B",
                "descending, down to 2K");
    static const named_energy stays_big[] = {
        {"8K_4W_64B_P", 100}, {"4K_2W_64B_P", 110}, {"8K_4W_32B_P", 90},
        {"8K_4W_16B_P", 95},  {"8K_2W_32B_P", 85},  {"8K_1W_32B", 86},
        {"8K_2W_32B", 84},
    };
    check_trail(&geometry, &plan, stays_big, COUNT_OF(stays_big),
                "8K_4W_64B_P 4K_2W_64B_P 8K_4W_32B_P 8K_4W_16B_P 8K_2W_32B_P 8K_1W_32B "
                "8K_2W_32B",
                "8K_2W_32B", "descending, stays at 8K");
}

/*
 * The mpeg2 D-cache of Table 1, built from a miss model: direct-mapped,
 * 16 B lines, the miss rate is 0.82% at 4K and 0.58% at 8K (the seed's
 * numbers), too small a drop to pay for the bigger cache, so the size walk
 * stops at 4K; but at 2 ways 8K's miss rate falls about five times more,
 * and 8K_2W_16B is the global optimum. The heuristic picks 4K_2W_16B after
 * 6 examined, as in Table 1; exhaustive finds 8K_2W_16B.
 */
static double mpeg2_energy(const stc_geometry *geometry, const stc_config *config,
                           const void *context)
{
    (void)geometry;
    (void)context;
    const double accesses = 1e6;
    unsigned size_index = stc_log2(config->banks_on); /* 0: 2K, 1: 4K, 2: 8K */
    unsigned ways_index = stc_log2(config->ways);
    unsigned line_index = stc_log2(config->sublines);
    /* miss rate [size][ways] at 16 B lines */
    static const double miss_rate[3][3] = {
        {0.0200, 0, 0},
        {0.0082, 0.0048, 0},
        {0.0058, 0.00116, 0.00110},
    };
    static const double line_factor[3] = {1.0, 0.9, 1.1};   /* 32 B removes a tenth */
    static const double miss_nj[3] = {20.0, 24.0, 32.0};     /* grows with the line */
    static const double hit_nj[3][3] = {{0.10, 0, 0}, {0.115, 0.15, 0}, {0.13, 0.17, 0.30}};
    static const double static_nj[3] = {0.010, 0.020, 0.060}; /* per access */
    double misses = accesses * miss_rate[size_index][ways_index] * line_factor[line_index];
    double probe = accesses * hit_nj[size_index][ways_index];
    if (config->way_predict) {
        /* 70% predicted (the seed's D-cache figure) at one bank's cost; a
         * misprediction costs all banks and a second cycle. */
        probe = accesses * (0.7 * hit_nj[size_index][0] + 0.3 * hit_nj[size_index][ways_index]) +
                accesses * 0.3 * 0.1;
    }
    return probe + misses * miss_nj[line_index] + accesses * static_nj[size_index];
}

static void test_mpeg2_interaction(void)
{
    stc_geometry geometry = default_geometry();
    stc_config c4k1w = {2, 1, 1, false}, c8k1w = {4, 1, 1, false};
    CHECK(mpeg2_energy(&geometry, &c8k1w, NULL) >= mpeg2_energy(&geometry, &c4k1w, NULL),
          "landscape: 8K_1W_16B must not be cheaper than 4K_1W_16B");

    stc_search_plan plan = stc_search_plan_seed();
    char trail[TRAIL_LEN];
    size_t examined;
    stc_config best = run_search(&geometry, &plan, mpeg2_energy, NULL, trail, &examined);
    char name[STC_CONFIG_NAME_MAX];
    stc_config_name(&geometry, &best, name, sizeof name);
    CHECK(!strcmp(trail, "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_2W_16B 4K_2W_16B_P"),
          "mpeg2 heuristic examined %s", trail);
    CHECK(!strcmp(name, "4K_2W_16B"), "mpeg2 heuristic chose %s, want 4K_2W_16B", name);
    CHECK_EQ_U64(examined, 6, "mpeg2 heuristic examines 6, as in Table 1");

    stc_search_plan exhaustive = {.kind = STC_SEARCH_EXHAUSTIVE, .order = {0, 1, 2, 3}};
    stc_config optimum = run_search(&geometry, &exhaustive, mpeg2_energy, NULL, trail, &examined);
    stc_config_name(&geometry, &optimum, name, sizeof name);
    CHECK(!strcmp(name, "8K_2W_16B"), "mpeg2 exhaustive chose %s, want 8K_2W_16B", name);
    CHECK_EQ_U64(examined, 27, "exhaustive examines all 27");
    double loss = mpeg2_energy(&geometry, &best, NULL) / mpeg2_energy(&geometry, &optimum, NULL);
    CHECK(loss > 1.0 && loss < 1.2, "heuristic loss %.3f should be a few percent", loss);
}

/* Random landscapes: one energy per configuration from a seeded generator,
 * with repeats so ties happen. */
typedef struct {
    uint64_t seed;
    unsigned levels; /* distinct energy values: few levels make many ties */
} random_landscape;

static double random_energy_of(const stc_geometry *geometry, const stc_config *config,
                               const void *context)
{
    const random_landscape *landscape = context;
    uint64_t key = landscape->seed ^ ((uint64_t)config->banks_on << 8) ^
                   ((uint64_t)config->ways << 20) ^ ((uint64_t)config->sublines << 32) ^
                   ((uint64_t)config->way_predict << 40) ^ geometry->banks;
    key *= 0x9E3779B97F4A7C15ULL;
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 32;
    return 1.0 + (double)(key % landscape->levels);
}

static stc_geometry geometry_with_banks(unsigned banks)
{
    stc_geometry geometry;
    char err[256];
    stc_geometry_default(&geometry);
    geometry.banks = banks;
    CHECK(stc_geometry_init(&geometry, err, sizeof err) == 0, "geometry banks=%u: %s", banks, err);
    return geometry;
}

/* Exhaustive's choice is a brute-force minimum (first in canonical order on
 * a tie), on several geometries. */
static void test_exhaustive_is_minimum(void)
{
    static const unsigned bank_counts[] = {1, 2, 4, 8, 32};
    for (size_t geometry_index = 0; geometry_index < COUNT_OF(bank_counts); geometry_index++) {
        stc_geometry geometry = geometry_with_banks(bank_counts[geometry_index]);
        stc_config all[STC_MAX_CONFIGS];
        size_t total = stc_config_enumerate(&geometry, all, STC_MAX_CONFIGS);
        for (uint64_t seed = 1; seed <= 200; seed++) {
            random_landscape landscape = {seed, seed % 2 ? 7 : 1000000};
            size_t brute = 0;
            for (size_t index = 1; index < total; index++) {
                if (random_energy_of(&geometry, &all[index], &landscape) <
                    random_energy_of(&geometry, &all[brute], &landscape)) {
                    brute = index;
                }
            }
            stc_search_plan plan = {.kind = STC_SEARCH_EXHAUSTIVE, .order = {0, 1, 2, 3}};
            char trail[TRAIL_LEN * 4];
            size_t examined;
            stc_config best = run_search(&geometry, &plan, random_energy_of, &landscape, trail,
                                         &examined);
            CHECK(stc_config_equal(&best, &all[brute]), "banks=%u seed %llu: exhaustive is not "
                  "the brute-force minimum", geometry.banks, (unsigned long long)seed);
            CHECK_EQ_U64(examined, total, "banks=%u: exhaustive examines every configuration",
                         geometry.banks);
        }
    }
}

/* Every one of the 24 orders, both directions, on random landscapes and
 * several geometries: candidates legal and distinct (run_search), the
 * choice no worse than the start, at most 1 + the values of each walk
 * examined, and the choice a local minimum along the last walk's axis
 * (one more step of the last parameter walked does not lower it). */
static void test_every_order(void)
{
    static const unsigned bank_counts[] = {1, 2, 4, 8};
    stc_param perm[STC_PARAM_COUNT] = {0, 1, 2, 3};
    size_t orders = 0;
    /* Heap's algorithm, iteratively, over the 24 permutations. */
    unsigned counters[STC_PARAM_COUNT] = {0};
    stc_param orders_list[24][STC_PARAM_COUNT];
    memcpy(orders_list[orders++], perm, sizeof perm);
    for (unsigned index = 1; index < STC_PARAM_COUNT;) {
        if (counters[index] < index) {
            unsigned other = index % 2 ? counters[index] : 0;
            stc_param swap = perm[other];
            perm[other] = perm[index];
            perm[index] = swap;
            memcpy(orders_list[orders++], perm, sizeof perm);
            counters[index]++;
            index = 1;
        } else {
            counters[index] = 0;
            index++;
        }
    }
    CHECK_EQ_U64(orders, 24, "24 orders");
    for (size_t geometry_index = 0; geometry_index < COUNT_OF(bank_counts); geometry_index++) {
        stc_geometry geometry = geometry_with_banks(bank_counts[geometry_index]);
        unsigned sizes = geometry.bank_bits + 1;
        size_t bound = 1 + (sizes - 1) + (STC_LINE_SIZES - 1) + (sizes - 1) + 1;
        for (size_t order = 0; order < orders; order++) {
            for (int descending = 0; descending <= 1; descending++) {
                for (uint64_t seed = 1; seed <= 20; seed++) {
                    stc_search_plan plan = {.kind = STC_SEARCH_HEURISTIC, .descending = descending != 0};
                    memcpy(plan.order, orders_list[order], sizeof plan.order);
                    random_landscape landscape = {seed * 977 + order, seed % 3 ? 5 : 1000};
                    char trail[TRAIL_LEN * 4];
                    size_t examined;
                    stc_config best = run_search(&geometry, &plan, random_energy_of, &landscape,
                                                 trail, &examined);
                    stc_search search;
                    char err[128];
                    stc_search_start(&search, &geometry, &plan, err, sizeof err);
                    stc_config start;
                    stc_search_next(&search, &start);
                    CHECK(random_energy_of(&geometry, &best, &landscape) <=
                              random_energy_of(&geometry, &start, &landscape),
                          "choice worse than the start");
                    CHECK(examined >= 1 && examined <= bound,
                          "banks=%u: %zu examined, bound %zu", geometry.banks, examined, bound);
                }
            }
        }
    }
}

/* Other geometries walk all their values: 8 banks have four sizes and up
 * to 8 ways; one bank has a single size and way, so only lines are walked. */
static void test_other_geometries(void)
{
    stc_geometry eight = geometry_with_banks(8);
    stc_search_plan plan = stc_search_plan_seed();
    static const named_energy landscape[] = {
        {"2K_1W_16B", 100},  {"4K_1W_16B", 90},   {"8K_1W_16B", 80},  {"16K_1W_16B", 70},
        {"16K_1W_32B", 75},  {"16K_2W_16B", 60},  {"16K_4W_16B", 50}, {"16K_8W_16B", 40},
        {"16K_8W_16B_P", 45},
    };
    check_trail(&eight, &plan, landscape, COUNT_OF(landscape),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 16K_1W_16B 16K_1W_32B 16K_2W_16B 16K_4W_16B "
                "16K_8W_16B 16K_8W_16B_P",
                "16K_8W_16B", "8 banks");

    stc_geometry one = geometry_with_banks(1);
    static const named_energy lines[] = {{"2K_1W_16B", 100}, {"2K_1W_32B", 90},
                                         {"2K_1W_64B", 80}};
    check_trail(&one, &plan, lines, COUNT_OF(lines), "2K_1W_16B 2K_1W_32B 2K_1W_64B",
                "2K_1W_64B", "1 bank");
    plan.descending = true;
    check_trail(&one, &plan, lines, COUNT_OF(lines), "2K_1W_64B 2K_1W_32B", "2K_1W_64B",
                "1 bank descending");
}

static void test_order_parse(void)
{
    stc_param order[STC_PARAM_COUNT];
    char err[256];
    CHECK(stc_search_order_parse("line,assoc,wp,size", order, err, sizeof err) == 0, "%s", err);
    CHECK(order[0] == STC_PARAM_LINE && order[1] == STC_PARAM_ASSOC &&
              order[2] == STC_PARAM_WAY_PREDICT && order[3] == STC_PARAM_SIZE,
          "parsed order");
    char text[64];
    stc_search_order_format(order, text, sizeof text);
    CHECK(!strcmp(text, "line,assoc,wp,size"), "format gives %s", text);
    static const char *const bad[] = {
        "",
        "size",
        "size,line,assoc",
        "size,line,assoc,wp,size",
        "size,line,line,wp",
        "size,line,assoc,way",
        "size,,assoc,wp",
        "SIZE,line,assoc,wp",
    };
    for (size_t index = 0; index < COUNT_OF(bad); index++) {
        err[0] = '\0';
        CHECK(stc_search_order_parse(bad[index], order, err, sizeof err) == -1,
              "order '%s' accepted", bad[index]);
        CHECK(strstr(err, "order") != NULL, "message for '%s' names the order: %s", bad[index],
              err);
    }
    stc_geometry geometry = default_geometry();
    stc_search search;
    stc_search_plan duplicate = {.kind = STC_SEARCH_HEURISTIC, .order = {0, 1, 1, 3}};
    CHECK(stc_search_start(&search, &geometry, &duplicate, err, sizeof err) == -1,
          "a plan with a repeated parameter is refused");
}

/* The margin: a candidate must be lower by more than floor(best / 2^m).
 * 4K (90) is within 100's 12 of it, 32 B (80) is not, 64 B (75) is within
 * 80's 10. */
static void test_margin(void)
{
    stc_geometry geometry = default_geometry();
    static const named_energy landscape[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 90}, {"2K_1W_32B", 80}, {"2K_1W_64B", 75},
    };
    stc_search_plan plan = stc_search_plan_seed();
    plan.margin_shift = 3;
    check_trail(&geometry, &plan, landscape, COUNT_OF(landscape),
                "2K_1W_16B 4K_1W_16B 2K_1W_32B 2K_1W_64B", "2K_1W_32B", "margin 1/8");
    plan.margin_shift = 0;
    check_trail(&geometry, &plan, landscape, COUNT_OF(landscape),
                "2K_1W_16B 4K_1W_16B 8K_1W_16B 4K_1W_32B 4K_2W_16B",
                "4K_1W_16B", "no margin");
}

/* Re-measuring the best: every measurement costs 10 more than the one
 * before (a program whose windows get costlier). Without re-measuring,
 * 2K_1W_32B (85 + 20) loses to 2K_1W_16B's stale 100; re-measured first
 * (100 + 20 = 120), it wins with 85 + 30 = 115. */
static void test_remeasure(void)
{
    stc_geometry geometry = default_geometry();
    static const named_energy base[] = {
        {"2K_1W_16B", 100}, {"4K_1W_16B", 95}, {"2K_1W_32B", 85},
    };
    named_landscape landscape = {base, COUNT_OF(base), 200.0};
    for (int remeasure = 0; remeasure <= 1; remeasure++) {
        stc_search_plan plan = stc_search_plan_seed();
        plan.remeasure = remeasure != 0;
        char err[256], trail[TRAIL_LEN] = "";
        stc_search search;
        CHECK(stc_search_start(&search, &geometry, &plan, err, sizeof err) == 0, "start: %s", err);
        stc_config candidate;
        unsigned measured = 0, flagged = 0;
        while (stc_search_next(&search, &candidate) && measured < 40) {
            char name[STC_CONFIG_NAME_MAX];
            stc_config_name(&geometry, &candidate, name, sizeof name);
            flagged += stc_search_remeasuring(&search);
            if (trail[0]) {
                strcat(trail, " ");
            }
            strcat(trail, name);
            stc_search_report(&search,
                              named_energy_of(&geometry, &candidate, &landscape) + 10.0 * measured);
            measured++;
        }
        char best[STC_CONFIG_NAME_MAX];
        stc_config best_config = stc_search_best(&search);
        stc_config_name(&geometry, &best_config, best, sizeof best);
        const char *want_trail = remeasure
                                     ? "2K_1W_16B 4K_1W_16B 2K_1W_16B 2K_1W_32B 2K_1W_64B"
                                     : "2K_1W_16B 4K_1W_16B 2K_1W_32B";
        CHECK(!strcmp(trail, want_trail), "remeasure %d: examined\n      %s\n want %s", remeasure,
              trail, want_trail);
        CHECK(!strcmp(best, remeasure ? "2K_1W_32B" : "2K_1W_16B"), "remeasure %d: chose %s",
              remeasure, best);
        CHECK_EQ_U64(stc_search_remeasures(&search), (uint64_t)remeasure, "re-measurements");
        CHECK_EQ_U64(flagged, (uint64_t)remeasure, "stc_search_remeasuring while one is out");
        CHECK_EQ_U64(stc_search_examined(&search, NULL), remeasure ? 4 : 3,
                     "a re-measurement is not a configuration examined");
    }
}

int main(void)
{
    test_seed_order();
    test_ties();
    test_other_order();
    test_descending();
    test_mpeg2_interaction();
    test_exhaustive_is_minimum();
    test_every_order();
    test_other_geometries();
    test_order_parse();
    test_margin();
    test_remeasure();
    return check_done("test_search");
}
