/*
 * json_file.h: a json-c object written to a file whole (results.c), for
 * the harness and its commands.  Kept out of the installed headers, so that
 * a program built on the library needs neither json-c's headers nor the
 * version apod was built with: it writes its JSON's text with
 * apod_file_write (apod/command.h).
 */
#ifndef APOD_JSON_FILE_H
#define APOD_JSON_FILE_H

#include <json-c/json.h>

/* Write obj to path, pretty-printed, through a temporary file renamed into
 * place (a reader never sees half a file); 0, or -1 after apod_fail. */
int apod_json_write(const char *path, json_object *obj);

#endif
