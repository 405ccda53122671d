#include "init.h"

#include "position.h"
#include "search.h"

void engine_init(void) {
    board_init();
    search_init();
}
