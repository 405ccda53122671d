/*
 * The Syzygy file format (.rtbw WDL and .rtbz DTZ tables), independent of
 * files, threads and the Position: what a table's name says about its
 * material, the validated layout of a mapped file, the index of a placement
 * of pieces, and the decoder of the compressed values. Internal to the
 * prober (syzygy.c); the engine uses syzygy.h.
 *
 * A file holds one or two sides to move (WDL tables of unequal material
 * store both, DTZ tables one) and, with pawns, four sub-tables by the file
 * (a-d after mirroring) of the leading pawn. Each sub-table maps a position
 * index to a small value compressed with recursive pairing (RePair) of
 * symbols that are then Huffman-coded in blocks; a sparse index locates the
 * block of any index.
 *
 * Everything read from the file is checked against the mapped length when
 * the layout is parsed, and again (block numbers, symbols, bit positions)
 * while decoding, so a damaged file gives a failed parse or a failed probe,
 * never a read outside the mapping.
 */
#ifndef GIZUM_SYZYGY_FORMAT_H
#define GIZUM_SYZYGY_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum {
    TB_MAX_PIECES = 7,   /* kings included: the largest published tables */
    TB_MAX_CODE_LEN = 32 /* longest Huffman code the decoder's 64-bit window can hold */
};

typedef enum { TB_FILE_WDL, TB_FILE_DTZ } TbFileKind;

/* What a table's name ("KRPvKR") says: the pieces of each side, white = the first part. */
typedef struct {
    uint8_t count[PIECE_NB]; /* pieces of each code (W_PAWN ... B_KING) */
    int pieceCount;
    bool hasPawns;
    bool symmetric;   /* both sides have the same pieces (KRvKR): one side to move is stored */
    bool threeUnique; /* pawnless with at least three pieces that occur once: they are indexed together */
    Piece leadPawn;   /* pawn tables: the pawns indexed first (the colour with fewer pawns, white on a tie) */
    int leadCount, otherPawnCount;
} TbMaterial;

/*
 * Parses a table name without extension ("KQvKR"): K and pieces, 'v', K and
 * pieces, at most TB_MAX_PIECES in all. False (with a reason) otherwise.
 */
bool tb_material_parse(const char *name, TbMaterial *m, char *err, size_t errlen);

/* DTZ sub-table flags (the first byte of each sub-table header). */
enum {
    TB_FLAG_STM = 1,          /* DTZ: the side to move stored (0 white, 1 black, in table colours) */
    TB_FLAG_MAPPED = 2,       /* DTZ values go through a per-result map */
    TB_FLAG_WIN_PLIES = 4,    /* DTZ of wins stored in plies (else in moves) */
    TB_FLAG_LOSS_PLIES = 8,   /* DTZ of losses stored in plies */
    TB_FLAG_WIDE = 16,        /* maps hold 16-bit values (7-piece tables) */
    TB_FLAG_SINGLE = 128      /* every position has the same value */
};

/* One compressed sub-table: one side to move and one leading-pawn file. */
typedef struct {
    uint8_t flags;
    uint8_t pieces[TB_MAX_PIECES];        /* piece codes in index order (table colours) */
    uint8_t groupLen[TB_MAX_PIECES + 1];  /* lengths of the index groups, zero-terminated */
    uint64_t groupFactor[TB_MAX_PIECES];  /* multiplier of each group's sub-index */
    uint64_t size;                        /* number of positions indexed */
    uint8_t singleValue;
    /* Huffman codes: canonical, longer codes have smaller values. */
    int minLen, maxLen;
    uint64_t base[TB_MAX_CODE_LEN];       /* smallest left-aligned code of each length (from minLen) */
    const uint8_t *lowestSym;             /* first symbol of each code length, 16-bit little-endian */
    /* RePair symbols: a leaf is a value, any other symbol a pair of two earlier symbols. */
    int symCount;
    const uint8_t *symPairs;              /* 3 bytes a symbol: two 12-bit children */
    uint8_t *symLen;                      /* values a symbol expands to, minus one (heap) */
    /* Blocks and the sparse index into them. */
    const uint8_t *sparse;                /* 6 bytes an entry: 32-bit block, 16-bit offset */
    uint64_t sparseCount;
    int spanLog2;                         /* indices between two sparse entries */
    const uint8_t *blockLen;              /* values in each block, minus one, 16-bit */
    uint64_t blockLenCount;
    const uint8_t *blocks;
    uint64_t blockCount;
    int blockLog2;                        /* bytes per block */
    /* DTZ maps (TB_FLAG_MAPPED): per result, where the values start and how many there are. */
    size_t mapStart[4];
    unsigned mapCount[4];
} TbPairs;

/* A parsed file: pointers into the caller's mapping, which must outlive it. */
typedef struct {
    const uint8_t *data;
    size_t size;
    TbFileKind kind;
    int sides, files;
    TbPairs pairs[2][4]; /* [side to move][leading-pawn file] */
} TbLayout;

/*
 * Checks and indexes a whole file of the given kind for material m. On
 * failure returns false with a reason ("wrong magic", "truncated: ..."),
 * and l holds nothing to release.
 */
bool tb_layout_parse(TbLayout *l, const uint8_t *data, size_t size, TbFileKind kind, const TbMaterial *m,
                     char *err, size_t errlen);
void tb_layout_release(TbLayout *l);

/* Squares of each piece code, already in the table's colours (the prober flips them if needed). */
typedef struct {
    Bitboard byPiece[PIECE_NB];
} TbBoard;

/*
 * The sub-table and index of a placement. side is the side to move in table
 * colours (ignored for single-sided files). False if the board does not fit
 * the table (cannot happen for a board of the table's material).
 */
bool tb_locate(const TbLayout *l, const TbMaterial *m, int side, const TbBoard *b, const TbPairs **pairs,
               uint64_t *index);

/* The stored value at index; false if the data is damaged. */
bool tb_decode(const TbPairs *p, uint64_t index, int *value);

/*
 * A DTZ table's raw value as plies to zeroing (before the prober's +100 for
 * cursed results): through the map of the result wdl (-2..2) and doubled
 * where moves are stored. False if the value has no map entry.
 */
bool tb_dtz_plies(const TbLayout *l, const TbPairs *p, int value, int wdl, int *plies);

#endif
