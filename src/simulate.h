/* simulate: `dlbtune simulate` — the real strategies and racer (search/) run against a synthetic landscape or
 * the landscapes recorded in a database, over seeded runs; no GPU. */
#ifndef DLB_SIMULATE_H
#define DLB_SIMULATE_H
#include "../search/race.h"
#include "../search/strategy.h"
#include "cli.h"

/* The search and racer options the command line asks for (tune and simulate share them); default_min_s is
 * the command's --min-search when none is given. */
void dlb_cli_search(const struct dlb_cli *c, double default_min_s, struct dlb_search_opts *so,
		    struct dlb_race_opts *ro);
int dlb_cmd_simulate(const struct dlb_cli *c);
#endif
