/*
 * commands.h - stcsim's commands (cli/), each a small program over the model
 * library in ref/. cli/stcsim.c is the plain simulator and sweep, and passes
 * `stcsim tune|explore|coherence ARGS...` to these with argv[0] naming the
 * command ("stcsim tune").
 */
#ifndef STC_CLI_COMMANDS_H
#define STC_CLI_COMMANDS_H

/* `stcsim tune` (cli/tune_cli.c, docs/TUNING.md): 0, 1 on a trace error,
 * 2 on bad usage. */
int stc_tune_main(int argc, char **argv);

/* `stcsim explore` (cli/explore_cli.c, docs/EXPLORER.md): 0, 1 on a trace
 * that cannot be read, 2 on bad usage. */
int stc_explore_main(int argc, char **argv);

/* `stcsim coherence` (cli/coherence_cli.c, docs/COHERENCE.md 9.5): 0 no
 * violation, 1 unreadable or malformed trace, 2 bad usage, 3 the run found
 * violations. */
int stc_coh_main(int argc, char **argv);

#endif
