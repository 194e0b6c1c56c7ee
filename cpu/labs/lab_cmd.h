/*
 * lab_cmd.h: `apod lab`, the guide's experiments (cmd_lab.c).
 */
#ifndef APOD_LAB_CMD_H
#define APOD_LAB_CMD_H

int apod_cmd_lab(int argc, char **argv);

#endif
