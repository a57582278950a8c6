/* app: dlbtune's commands behind one entry point; returns the exit status (src/cli.h). */
#ifndef DLB_APP_H
#define DLB_APP_H
int dlb_main(int argc, char **argv);
#endif
