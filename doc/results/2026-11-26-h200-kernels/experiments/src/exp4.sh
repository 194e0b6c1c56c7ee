#!/bin/bash
export PATH=/usr/local/cuda/bin:$PATH
D=.device/kernels
date -u > $OUT/info.txt
nvcc -O3 -std=c++20 -arch=sm_90 -DAPOD_REAL_FLOAT=1 -I shared -I gpu/heat -I gpu -o /tmp/he $D/heat_exp.cu 2>/dev/null
/tmp/he > $OUT/heat.txt 2>&1
cuobjdump -sass /tmp/he | awk '/Function :/ {if (f) {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}; f=$3; delete c; t=0; next}
     /^ +\/\*[0-9a-f]+\*\/ / {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); sub(/;/, "", op); t++; if (op ~ /^(LDG|STG|LDL|STL|DADD|F2F|BRA|SHFL|ATOMS)$/) c[op]++}
     END {printf "%s", f; for (k in c) printf " %s=%d", k, c[k]; printf " total=%d\n", t}' > $OUT/sass-heat.txt
