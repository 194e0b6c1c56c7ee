#!/bin/bash
export PATH=/usr/local/cuda/bin:$PATH
D=.device/kernels
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; } > $OUT/info.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/nb $D/nbody_exp.cu 2>/dev/null
/tmp/nb > $OUT/nbody.txt 2>&1
cuobjdump -sass /tmp/nb | awk '/Function :/ {if (f) {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}; f=$3; delete c; t=0; next}
     /^ +\/\*[0-9a-f]+\*\/ / {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); sub(/;/, "", op); t++; if (op ~ /^(FFMA|FMUL|FADD|MUFU|LDS|BAR|BRA)$/) c[op]++}
     END {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}' > $OUT/sass-nbody.txt
