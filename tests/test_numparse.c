/*
 * The whole-token integer parsers every command line reads numbers with:
 * ranges inclusive, overflow and trailing characters refused.
 */
#include <stdint.h>

#include "numparse.h"
#include "test.h"

int main(void) {
    int64_t v = 0;
    CHECK(parse_integer("42", 0, 100, &v) && v == 42, "42 in 0..100");
    CHECK(parse_integer("-7", -10, 10, &v) && v == -7, "a sign");
    CHECK(parse_integer("0", 0, 0, &v) && v == 0 && parse_integer("100", 0, 100, &v) && v == 100,
          "both ends of the range are inside it");
    CHECK(!parse_integer("101", 0, 100, &v) && !parse_integer("-1", 0, 100, &v), "outside the range");
    CHECK(!parse_integer("", 0, 100, &v) && !parse_integer(NULL, 0, 100, &v) && !parse_integer("-", 0, 100, &v),
          "empty, missing or a bare sign");
    CHECK(!parse_integer("12x", 0, 100, &v) && !parse_integer("1.5", 0, 100, &v) && !parse_integer("5 ", 0, 100, &v),
          "trailing characters");
    CHECK(parse_integer("9223372036854775807", 0, INT64_MAX, &v) && v == INT64_MAX
              && !parse_integer("9223372036854775808", 0, INT64_MAX, &v)
              && !parse_integer("-9223372036854775809", INT64_MIN, 0, &v),
          "the 64-bit limits: overflow is refused, not clamped");
    v = 5;
    CHECK(!parse_integer("x", 0, 100, &v) && v == 5, "a refused text leaves the output alone");

    uint64_t u = 0;
    CHECK(parse_unsigned("18446744073709551615", &u) && u == UINT64_MAX, "the whole unsigned range");
    CHECK(!parse_unsigned("18446744073709551616", &u), "unsigned overflow");
    CHECK(!parse_unsigned("-1", &u) && !parse_unsigned("+1", &u) && !parse_unsigned(" 1", &u), "digits only");
    CHECK(!parse_unsigned("7a", &u) && !parse_unsigned("", &u) && !parse_unsigned(NULL, &u), "trailing or nothing");
    return test_report();
}
