# cmake -DIN=<file> -DOUT=<file>.c -DNAME=symbol -P embed.cmake: file's bytes as a C array (a string
# literal past 4095 characters is not ISO C) `const unsigned char NAME[]` and `const size_t NAME_size`.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "/* Generated from ${IN} by embed.cmake: do not edit. */\n#include <stddef.h>\n"
     "const unsigned char ${NAME}[] = {\n${bytes}0x00};\nconst size_t ${NAME}_size = ${size};\n")
