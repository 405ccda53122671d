#ifndef GIZUM_INIT_H
#define GIZUM_INIT_H

/* Builds every immutable start-up table, in dependency order. Call once. */
void gizum_init(void);

#endif
