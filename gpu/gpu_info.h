#ifndef APOD_GPU_INFO_H
#define APOD_GPU_INFO_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `apod info`'s device part: runtime and driver, every device, whether this
 * binary carries code for it.  Returns 0 (no device is not an error here). */
int apod_gpu_print_info(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
