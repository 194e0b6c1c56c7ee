/*
 * json_file.h: a json-c object written to a file whole (results.c).  Kept
 * out of the installed headers, so that a program built on the library
 * does not need json-c's headers, nor the version apod was built with.
 */
#ifndef APOD_JSON_FILE_H
#define APOD_JSON_FILE_H

#include <json-c/json.h>

#include "apod/apod.h"

/* Write obj to path, pretty-printed, through a temporary file renamed into
 * place (a reader never sees half a file); 0, or -1 after apod_fail. */
APOD_API int apod_json_write(const char *path, json_object *obj);

#endif
