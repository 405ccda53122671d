/*
 * The Syzygy file format: material from names, layout parsing with bounds
 * checks, position indices and the RePair/Huffman value decoder.
 *
 * Index scheme (as the generator defines it). Pawnless tables use the
 * board's eight symmetries: the first piece is brought into the a1-d1-d4
 * triangle, and the first piece of the leading group off the a1-h8
 * diagonal below it. The leading group is either three pieces that occur
 * once each (31332 placements) or, failing that, the two kings (462 legal
 * placements). Pawn tables only mirror a-h: the leading pawns (the colour
 * with fewer pawns) are indexed first, and the file (a-d) of the pawn
 * nearest the edge, lowest rank first, selects one of four sub-tables; the
 * other side's pawns follow among the 48 pawn squares. Every further group
 * of identical pieces is a combination of squares not taken by the earlier
 * groups. A sub-table stores the group indices in its own order, each
 * scaled by the product of the sizes of the groups after it.
 */
#include "syzygy_format.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "bitboard.h"

/* ---------------------------------------------------------------- start-up tables */

enum { LEAD_MAX = 6, THREE_UNIQUE_PLACEMENTS = 31332, KING_PAIR_PLACEMENTS = 462 };

static uint64_t Binomial[TB_MAX_PIECES + 1][SQUARE_NB]; /* Binomial[k][n] = n choose k */
static int PawnRank[SQUARE_NB];    /* pawn squares a2-h7 numbered 47 down to 0: edge files and low ranks first */
static uint64_t LeadIndex[LEAD_MAX][SQUARE_NB]; /* first index of a leading pawn square, by number of leading pawns */
static uint64_t LeadSize[LEAD_MAX][4];          /* indices of each leading-pawn file */
static int Triangle[SQUARE_NB];    /* a1-d1-d4: the six squares below the diagonal 0..5, the diagonal 6..9 */
static int BelowDiagonal[SQUARE_NB]; /* the 28 squares below the a1-h8 diagonal, 0..27 */
static int KingPair[10][SQUARE_NB];  /* the 462 legal king placements, first king in the triangle; -1 impossible */
static pthread_once_t TablesOnce = PTHREAD_ONCE_INIT;

static int off_diagonal(Square s) { return rank_of(s) - file_of(s); }
static Square flip_diagonal(Square s) { return (Square)(((s >> 3) | (s << 3)) & 63); }

static void init_binomials(void) {
    for (int k = 0; k <= TB_MAX_PIECES; k++)
        for (int n = 0; n < SQUARE_NB; n++) {
            uint64_t c = 1;
            for (int i = 0; i < k; i++) c = c * (uint64_t)(n - i) / (uint64_t)(i + 1);
            Binomial[k][n] = n < k ? 0 : c;
        }
}

static void init_pawn_tables(void) {
    int next = 47;
    for (int f = FILE_A; f <= FILE_D; f++)
        for (int r = RANK_2; r <= RANK_7; r++) {
            PawnRank[make_square(f, r)] = next--;
            PawnRank[make_square(FILE_H - f, r)] = next--;
        }
    /* The leading pawn has the highest rank number; the others take smaller ones. */
    for (int lead = 1; lead < LEAD_MAX; lead++)
        for (int f = FILE_A; f <= FILE_D; f++) {
            uint64_t idx = 0;
            for (int r = RANK_2; r <= RANK_7; r++) {
                Square s = make_square(f, r);
                LeadIndex[lead][s] = idx;
                idx += Binomial[lead - 1][PawnRank[s]];
            }
            LeadSize[lead][f] = idx;
        }
}

static void init_piece_tables(void) {
    int below = 0, tri = 0;
    Square diagonal[4];
    int diagonalCount = 0;
    for (int s = 0; s < SQUARE_NB; s++) {
        if (off_diagonal((Square)s) < 0) BelowDiagonal[s] = below++;
        if (file_of((Square)s) > FILE_D || rank_of((Square)s) > RANK_4) continue;
        if (off_diagonal((Square)s) < 0) Triangle[s] = tri++;
        else if (off_diagonal((Square)s) == 0) diagonal[diagonalCount++] = (Square)s;
    }
    for (int i = 0; i < diagonalCount; i++) Triangle[diagonal[i]] = tri++;

    /* Both kings on the diagonal come last. */
    int code = 0, lateCount = 0;
    struct { int tri; Square s; } late[64];
    for (int t = 0; t < 10; t++)
        for (int s = 0; s < SQUARE_NB; s++) KingPair[t][s] = -1;
    for (int t = 0; t < 10; t++)
        for (int s1 = 0; s1 < SQUARE_NB; s1++) {
            if (file_of((Square)s1) > FILE_D || rank_of((Square)s1) > RANK_4 || off_diagonal((Square)s1) > 0 ||
                Triangle[s1] != t)
                continue;
            for (int s2 = 0; s2 < SQUARE_NB; s2++) {
                if (s2 == s1 || (king_attacks((Square)s1) & square_bb((Square)s2))) continue;
                bool firstOnDiagonal = off_diagonal((Square)s1) == 0;
                if (firstOnDiagonal && off_diagonal((Square)s2) > 0) continue;
                if (firstOnDiagonal && off_diagonal((Square)s2) == 0) {
                    late[lateCount].tri = t;
                    late[lateCount++].s = (Square)s2;
                } else {
                    KingPair[t][s2] = code++;
                }
            }
        }
    for (int i = 0; i < lateCount; i++) KingPair[late[i].tri][late[i].s] = code++;
}

static void init_tables(void) {
    init_binomials();
    init_pawn_tables();
    init_piece_tables();
}

/* ---------------------------------------------------------------- material */

bool tb_material_parse(const char *name, TbMaterial *m, char *err, size_t errlen) {
    static const char Letters[] = " PNBRQK";
    memset(m, 0, sizeof *m);
    Color side = WHITE;
    bool sawV = false;
    size_t len = strlen(name);
    if (len == 0 || len > 16) {
        snprintf(err, errlen, "not a table name");
        return false;
    }
    for (const char *p = name; *p; p++) {
        if (*p == 'v') {
            if (sawV) {
                snprintf(err, errlen, "not a table name (two 'v')");
                return false;
            }
            sawV = true;
            side = BLACK;
            continue;
        }
        const char *at = strchr(Letters + 1, *p);
        if (!at || !*p) {
            snprintf(err, errlen, "not a table name (letter '%c')", *p);
            return false;
        }
        m->count[make_piece(side, (PieceType)(at - Letters))]++;
        m->pieceCount++;
    }
    if (!sawV || m->count[W_KING] != 1 || m->count[B_KING] != 1) {
        snprintf(err, errlen, "not a table name (needs one king a side and a 'v')");
        return false;
    }
    if (m->pieceCount > TB_MAX_PIECES) {
        snprintf(err, errlen, "%d pieces: tables of at most %d pieces are supported", m->pieceCount, TB_MAX_PIECES);
        return false;
    }
    m->hasPawns = m->count[W_PAWN] + m->count[B_PAWN] > 0;
    m->symmetric = true;
    int unique = 0;
    for (PieceType pt = PAWN; pt <= KING; pt++) {
        if (m->count[make_piece(WHITE, pt)] != m->count[make_piece(BLACK, pt)]) m->symmetric = false;
        unique += (m->count[make_piece(WHITE, pt)] == 1) + (m->count[make_piece(BLACK, pt)] == 1);
    }
    m->threeUnique = !m->hasPawns && unique >= 3;
    if (m->hasPawns) {
        int w = m->count[W_PAWN], b = m->count[B_PAWN];
        bool blackLeads = b > 0 && (w == 0 || b < w);
        m->leadPawn = blackLeads ? B_PAWN : W_PAWN;
        m->leadCount = blackLeads ? b : w;
        m->otherPawnCount = blackLeads ? w : b;
    }
    return true;
}

/* ---------------------------------------------------------------- parsing */

/* A bounded reader over the file: every read past the end marks it failed. */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
    bool ok;
} Cursor;

static unsigned take8(Cursor *c) {
    if (c->pos >= c->size) {
        c->ok = false;
        return 0;
    }
    return c->data[c->pos++];
}

static unsigned read_le16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t read_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned take16(Cursor *c) {
    unsigned lo = take8(c);
    return lo | take8(c) << 8;
}

static uint32_t take32(Cursor *c) {
    uint32_t lo = take16(c);
    return lo | (uint32_t)take16(c) << 16;
}

/* Skips n bytes; returns where they start (NULL when they do not fit). */
static const uint8_t *take_bytes(Cursor *c, uint64_t n) {
    if (!c->ok || n > c->size - c->pos) {
        c->ok = false;
        return NULL;
    }
    const uint8_t *at = c->data + c->pos;
    c->pos += (size_t)n;
    return at;
}

static void align(Cursor *c, size_t to) {
    size_t pos = (c->pos + to - 1) / to * to;
    if (pos > c->size) c->ok = false;
    else c->pos = pos;
}

/* Piece codes a file may name: white and black pawn to king. */
static bool piece_code_ok(int code) { return (code >= W_PAWN && code <= W_KING) || (code >= B_PAWN && code <= B_KING); }

/*
 * The groups and their factors of one sub-table from its piece order and
 * group order (order: where the leading group goes, order2: where the other
 * side's pawns go). Checks that the pieces are the table's material in a
 * shape the generator writes.
 */
static bool setup_groups(TbPairs *p, const TbMaterial *m, int order, int order2, int file, char *err, size_t errlen) {
    int n = m->pieceCount;
    uint8_t seen[PIECE_NB] = {0};
    for (int i = 0; i < n; i++) {
        if (!piece_code_ok(p->pieces[i])) {
            snprintf(err, errlen, "not a tablebase (piece code %d)", p->pieces[i]);
            return false;
        }
        seen[p->pieces[i]]++;
    }
    if (memcmp(seen, m->count, sizeof seen) != 0) {
        snprintf(err, errlen, "not a tablebase for this material (stored pieces differ)");
        return false;
    }
    /* Identical pieces must sit together (except inside the leading group, where they are unique anyway). */
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i - 1; j++)
            if (p->pieces[j] == p->pieces[i] && p->pieces[i - 1] != p->pieces[i]) {
                snprintf(err, errlen, "not a tablebase (split piece group)");
                return false;
            }

    int g = 0, i = 0;
    if (m->hasPawns) {
        for (int k = 0; k < m->leadCount + m->otherPawnCount; k++) {
            int want = k < m->leadCount ? m->leadPawn : (m->leadPawn ^ 8);
            if (p->pieces[k] != want) {
                snprintf(err, errlen, "not a tablebase (pawns not stored first)");
                return false;
            }
        }
        p->groupLen[g++] = (uint8_t)m->leadCount;
        i = m->leadCount;
        if (m->otherPawnCount) {
            p->groupLen[g++] = (uint8_t)m->otherPawnCount;
            i += m->otherPawnCount;
        }
    } else {
        int first = m->threeUnique ? 3 : 2;
        for (int k = 0; k < first; k++) {
            bool fits = m->threeUnique ? m->count[p->pieces[k]] == 1 : piece_type(p->pieces[k]) == KING;
            if (!fits) {
                snprintf(err, errlen, "not a tablebase (leading group)");
                return false;
            }
        }
        p->groupLen[g++] = (uint8_t)first;
        i = first;
    }
    while (i < n) {
        int len = 1;
        while (i + len < n && p->pieces[i + len] == p->pieces[i]) len++;
        p->groupLen[g++] = (uint8_t)len;
        i += len;
    }
    p->groupLen[g] = 0;

    bool twoPawnGroups = m->hasPawns && m->otherPawnCount > 0;
    int next = twoPawnGroups ? 2 : 1;
    int freeSquares = SQUARE_NB - p->groupLen[0] - (twoPawnGroups ? p->groupLen[1] : 0);
    bool leadPlaced = false, otherPlaced = !twoPawnGroups;
    uint64_t f = 1;
    for (int k = 0; k < g; k++) {
        if (k == order) {
            p->groupFactor[0] = f;
            f *= m->hasPawns ? LeadSize[m->leadCount][file] : m->threeUnique ? THREE_UNIQUE_PLACEMENTS : KING_PAIR_PLACEMENTS;
            leadPlaced = true;
        } else if (twoPawnGroups && k == order2) {
            p->groupFactor[1] = f;
            f *= Binomial[m->otherPawnCount][48 - m->leadCount];
            otherPlaced = true;
        } else {
            if (next >= g) break;
            p->groupFactor[next] = f;
            f *= Binomial[p->groupLen[next]][freeSquares];
            freeSquares -= p->groupLen[next];
            next++;
        }
    }
    if (!leadPlaced || !otherPlaced || next != g) {
        snprintf(err, errlen, "not a tablebase (bad group order)");
        return false;
    }
    p->size = f;
    return true;
}

/* Values each symbol expands to (minus one); false on a cycle, a child out of range or an overlong expansion. */
static bool symbol_length(TbPairs *p, int sym, uint8_t *state) {
    if (state[sym] == 2) return true;
    if (state[sym] == 1) return false; /* a cycle: no real table has one */
    state[sym] = 1;
    const uint8_t *w = p->symPairs + 3 * sym;
    int left = w[0] | (w[1] & 0xF) << 8, right = w[1] >> 4 | w[2] << 4;
    if (right == 0xFFF) {
        p->symLen[sym] = 0;
    } else {
        if (left >= p->symCount || right >= p->symCount) return false;
        if (!symbol_length(p, left, state) || !symbol_length(p, right, state)) return false;
        int len = p->symLen[left] + p->symLen[right] + 1;
        if (len > 255) return false;
        p->symLen[sym] = (uint8_t)len;
    }
    state[sym] = 2;
    return true;
}

/* A sub-table header: Huffman and RePair set-up and the sizes of its index, length and block arrays. */
static bool parse_pairs(TbPairs *p, Cursor *c, char *err, size_t errlen) {
    p->flags = (uint8_t)take8(c);
    if (p->flags & TB_FLAG_SINGLE) {
        p->singleValue = (uint8_t)take8(c);
        return c->ok;
    }
    p->blockLog2 = (int)take8(c);
    p->spanLog2 = (int)take8(c);
    unsigned padding = take8(c);
    p->blockCount = take32(c);
    p->maxLen = (int)take8(c);
    p->minLen = (int)take8(c);
    if (!c->ok) return false;
    if (p->blockLog2 > 30 || p->spanLog2 < 1 || p->spanLog2 > 40 || p->minLen < 1 || p->maxLen > TB_MAX_CODE_LEN ||
        p->minLen > p->maxLen) {
        snprintf(err, errlen, "not a tablebase (bad compression header)");
        return false;
    }
    int lengths = p->maxLen - p->minLen + 1;
    p->lowestSym = take_bytes(c, 2u * (unsigned)lengths);
    p->symCount = (int)take16(c);
    p->symPairs = take_bytes(c, 3u * (unsigned)p->symCount);
    take_bytes(c, (unsigned)p->symCount & 1);
    if (!c->ok) return false;
    if (p->symCount < 1 || p->symCount > 4096) {
        snprintf(err, errlen, "not a tablebase (%d symbols)", p->symCount);
        return false;
    }
    p->symLen = malloc((size_t)p->symCount);
    uint8_t *state = calloc((size_t)p->symCount, 1);
    if (!p->symLen || !state) {
        free(state);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool treeOk = true;
    for (int s = 0; s < p->symCount && treeOk; s++) treeOk = symbol_length(p, s, state);
    free(state);
    if (!treeOk) {
        snprintf(err, errlen, "not a tablebase (bad symbol tree)");
        return false;
    }

    /* Canonical Huffman: base[i] is the smallest code of length minLen + i, left-aligned in 64 bits. */
    p->base[lengths - 1] = 0;
    for (int i = lengths - 2; i >= 0; i--)
        p->base[i] = (p->base[i + 1] + read_le16(p->lowestSym + 2 * i) - read_le16(p->lowestSym + 2 * (i + 1))) / 2;
    for (int i = 0; i < lengths; i++) p->base[i] <<= 64 - (p->minLen + i);

    p->sparseCount = (p->size + (1ULL << p->spanLog2) - 1) >> p->spanLog2;
    p->blockLenCount = p->blockCount + padding;
    return true;
}

/* DTZ value maps: four lists (win, loss, cursed win, blessed loss) of 8- or 16-bit values. */
static bool parse_maps(TbPairs *p, Cursor *c) {
    if (!(p->flags & TB_FLAG_MAPPED) || (p->flags & TB_FLAG_SINGLE)) return true;
    bool wide = p->flags & TB_FLAG_WIDE;
    if (wide) align(c, 2);
    for (int i = 0; i < 4; i++) {
        unsigned count = wide ? take16(c) : take8(c);
        p->mapStart[i] = c->pos;
        p->mapCount[i] = count;
        take_bytes(c, (uint64_t)count * (wide ? 2 : 1));
    }
    return c->ok;
}

static const uint8_t WdlMagic[4] = {0x71, 0xE8, 0x23, 0x5D};
static const uint8_t DtzMagic[4] = {0xD7, 0x66, 0x0C, 0xA5};

/* A file shorter than its header says: the message, and false. */
static bool truncated(const Cursor *c, char *err, size_t errlen) {
    snprintf(err, errlen, "truncated (%zu bytes, the header describes more)", c->size);
    return false;
}

static bool parse_file(TbLayout *l, Cursor *c, const TbMaterial *m, char *err, size_t errlen) {
    TbFileKind kind = l->kind;
    const uint8_t *data = c->data;
    if (c->size < 5) {
        snprintf(err, errlen, "truncated (%zu bytes)", c->size);
        return false;
    }
    if (memcmp(data, kind == TB_FILE_WDL ? WdlMagic : DtzMagic, 4) != 0) {
        bool swapped = memcmp(data, kind == TB_FILE_WDL ? DtzMagic : WdlMagic, 4) == 0;
        snprintf(err, errlen, "wrong magic: %s", swapped ? (kind == TB_FILE_WDL ? "a DTZ table named .rtbw" : "a WDL table named .rtbz")
                                                        : "not a Syzygy table");
        return false;
    }
    unsigned flags = data[4];
    bool split = flags & 1, pawns = (flags & 2) != 0;
    if (pawns != m->hasPawns || (kind == TB_FILE_WDL && split == m->symmetric)) {
        snprintf(err, errlen, "not a tablebase for this material (header flags %u)", flags);
        return false;
    }
    l->sides = kind == TB_FILE_WDL && split ? 2 : 1;
    l->files = pawns ? 4 : 1;
    c->pos = 5;

    int n = m->pieceCount;
    bool twoPawnGroups = pawns && m->otherPawnCount > 0;
    for (int f = 0; f < l->files; f++) {
        unsigned order = take8(c);
        unsigned order2 = twoPawnGroups ? take8(c) : 0xFF;
        const uint8_t *pieces = take_bytes(c, (unsigned)n);
        if (!c->ok) break;
        for (int s = 0; s < l->sides; s++) {
            TbPairs *p = &l->pairs[s][f];
            for (int i = 0; i < n; i++) p->pieces[i] = (uint8_t)(s ? pieces[i] >> 4 : pieces[i] & 0xF);
            int o = (int)(s ? order >> 4 : order & 0xF), o2 = twoPawnGroups ? (int)(s ? order2 >> 4 : order2 & 0xF) : -1;
            if (!setup_groups(p, m, o, o2, f, err, errlen)) return false;
        }
    }
    align(c, 2);
    for (int f = 0; f < l->files && c->ok; f++)
        for (int s = 0; s < l->sides && c->ok; s++)
            if (!parse_pairs(&l->pairs[s][f], c, err, errlen)) {
                if (!c->ok) break;
                return false;
            }
    if (kind == TB_FILE_DTZ) {
        for (int f = 0; f < l->files && c->ok; f++) parse_maps(&l->pairs[0][f], c);
        align(c, 2);
    }
    /* Cut inside the headers: a sub-table's settings may be half read, and sizes must not be built from them. */
    if (!c->ok) return truncated(c, err, errlen);
    for (int f = 0; f < l->files; f++)
        for (int s = 0; s < l->sides; s++) {
            TbPairs *p = &l->pairs[s][f];
            if (p->flags & TB_FLAG_SINGLE) continue;
            if (p->sparseCount > (c->size / 6) + 1) c->ok = false;
            p->sparse = take_bytes(c, p->sparseCount * 6);
        }
    for (int f = 0; f < l->files; f++)
        for (int s = 0; s < l->sides; s++) {
            TbPairs *p = &l->pairs[s][f];
            if (!(p->flags & TB_FLAG_SINGLE)) p->blockLen = take_bytes(c, p->blockLenCount * 2);
        }
    for (int f = 0; f < l->files; f++)
        for (int s = 0; s < l->sides; s++) {
            TbPairs *p = &l->pairs[s][f];
            align(c, 64);
            if (!(p->flags & TB_FLAG_SINGLE)) p->blocks = take_bytes(c, p->blockCount << p->blockLog2);
        }
    return c->ok || truncated(c, err, errlen);
}

/*
 * A Syzygy file is its tables, the last block ending on a 64-byte boundary,
 * then a 16-byte checksum: 64 k + 16 bytes, and at least the end of what the
 * header describes (end) plus the checksum. Any other size is a damaged or
 * cut file even when every table inside it still parses. (The checksum
 * itself is not verified: that would read the whole file.)
 */
static bool check_size(size_t size, size_t end, char *err, size_t errlen) {
    enum { ALIGN = 64, CHECKSUM_BYTES = 16 };
    size_t needed = (end + ALIGN - 1) / ALIGN * ALIGN + CHECKSUM_BYTES;
    if (size % ALIGN == CHECKSUM_BYTES && size >= needed) return true;
    snprintf(err, errlen, "wrong size: %zu bytes, a table file has 64 k + 16 and this one at least %zu", size, needed);
    return false;
}

void tb_layout_release(TbLayout *l) {
    for (int s = 0; s < 2; s++)
        for (int f = 0; f < 4; f++) {
            free(l->pairs[s][f].symLen);
            l->pairs[s][f].symLen = NULL;
        }
}

bool tb_layout_parse(TbLayout *l, const uint8_t *data, size_t size, TbFileKind kind, const TbMaterial *m,
                     char *err, size_t errlen) {
    pthread_once(&TablesOnce, init_tables);
    memset(l, 0, sizeof *l);
    l->data = data;
    l->size = size;
    l->kind = kind;
    Cursor c = {data, size, 0, true};
    if (!parse_file(l, &c, m, err, errlen) || !check_size(size, c.pos, err, errlen)) {
        tb_layout_release(l);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------- indexing */

static void sort_squares(Square *sq, int n, const int *key) {
    for (int i = 1; i < n; i++) {
        Square s = sq[i];
        int j = i;
        for (; j > 0 && (key ? key[sq[j - 1]] > key[s] : sq[j - 1] > s); j--) sq[j] = sq[j - 1];
        sq[j] = s;
    }
}

static void transform_all(Square *sq, int n, int xorMask) {
    for (int i = 0; i < n; i++) sq[i] = (Square)(sq[i] ^ xorMask);
}

/* The leading group of three unique pieces (sq[0] in the triangle, the first piece off the diagonal below it). */
static uint64_t index_three_unique(const Square *sq) {
    Square a = sq[0], b = sq[1], c = sq[2];
    int adjustB = b > a, adjustC = (c > a) + (c > b);
    if (off_diagonal(a))
        return ((uint64_t)Triangle[a] * 63 + (uint64_t)(b - adjustB)) * 62 + (uint64_t)(c - adjustC);
    if (off_diagonal(b))
        return 6 * 63 * 62 + ((uint64_t)rank_of(a) * 28 + (uint64_t)BelowDiagonal[b]) * 62 + (uint64_t)(c - adjustC);
    if (off_diagonal(c))
        return 6 * 63 * 62 + 4 * 28 * 62 + (uint64_t)rank_of(a) * 7 * 28 + (uint64_t)(rank_of(b) - adjustB) * 28 +
               (uint64_t)BelowDiagonal[c];
    return 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + (uint64_t)rank_of(a) * 7 * 6 + (uint64_t)(rank_of(b) - adjustB) * 6 +
           (uint64_t)(rank_of(c) - adjustC);
}

bool tb_locate(const TbLayout *l, const TbMaterial *m, int side, const TbBoard *b, const TbPairs **pairs,
               uint64_t *index) {
    int n = m->pieceCount, file = 0;
    Square lead = SQ_NONE;
    if (m->hasPawns) {
        Bitboard pawns = b->byPiece[m->leadPawn];
        if (!pawns) return false;
        lead = pop_lsb(&pawns);
        while (pawns) {
            Square s = pop_lsb(&pawns);
            if (PawnRank[s] > PawnRank[lead]) lead = s;
        }
        file = file_of(lead) > FILE_D ? FILE_H - file_of(lead) : file_of(lead);
    }
    const TbPairs *p = &l->pairs[l->sides == 2 ? side : 0][file];
    *pairs = p;

    Square sq[TB_MAX_PIECES] = {A1};
    Bitboard left[PIECE_NB];
    memcpy(left, b->byPiece, sizeof left);
    for (int i = 0; i < n; i++) {
        if (!left[p->pieces[i]]) return false;
        sq[i] = pop_lsb(&left[p->pieces[i]]);
    }

    uint64_t idx;
    int start;
    if (m->hasPawns) {
        for (int i = 1; i < m->leadCount; i++)
            if (sq[i] == lead) {
                sq[i] = sq[0];
                sq[0] = lead;
            }
        if (file_of(sq[0]) > FILE_D) transform_all(sq, n, 7);
        sort_squares(sq + 1, m->leadCount - 1, PawnRank);
        idx = LeadIndex[m->leadCount][sq[0]];
        for (int i = 1; i < m->leadCount; i++) idx += Binomial[i][PawnRank[sq[i]]];
        start = m->leadCount;
    } else {
        if (file_of(sq[0]) > FILE_D) transform_all(sq, n, 7);
        if (rank_of(sq[0]) > RANK_4) transform_all(sq, n, 56);
        for (int i = 0; i < p->groupLen[0]; i++) {
            int d = off_diagonal(sq[i]);
            if (d == 0) continue;
            if (d > 0)
                for (int j = 0; j < n; j++) sq[j] = flip_diagonal(sq[j]);
            break;
        }
        if (m->threeUnique) {
            idx = index_three_unique(sq);
        } else {
            int k = KingPair[Triangle[sq[0]]][sq[1]];
            if (k < 0) return false;
            idx = (uint64_t)k;
        }
        start = p->groupLen[0];
    }
    idx *= p->groupFactor[0];

    /* Later groups: combinations of the squares the earlier groups leave free. */
    bool pawnGroup = m->hasPawns && m->otherPawnCount > 0;
    for (int g = 1; p->groupLen[g]; g++) {
        int len = p->groupLen[g];
        sort_squares(sq + start, len, NULL);
        uint64_t sub = 0;
        for (int k = 0; k < len; k++) {
            int x = sq[start + k], below = 0;
            for (int j = 0; j < start; j++) below += (int)sq[j] < x;
            x -= below + (pawnGroup ? 8 : 0);
            if (x < 0) return false;
            sub += Binomial[k + 1][x];
        }
        pawnGroup = false;
        idx += sub * p->groupFactor[g];
        start += len;
    }
    if (idx >= p->size) return false;
    *index = idx;
    return true;
}

/* ---------------------------------------------------------------- decoding */

bool tb_decode(const TbPairs *p, uint64_t index, int *value) {
    if (p->flags & TB_FLAG_SINGLE) {
        *value = p->singleValue;
        return true;
    }
    if (index >= p->size) return false;

    /* The sparse entry nearest index names a block and the offset of its middle index in it. */
    uint64_t entry = index >> p->spanLog2;
    if (entry >= p->sparseCount) return false;
    const uint8_t *e = p->sparse + 6 * entry;
    uint64_t block = read_le32(e);
    int64_t offset = (int64_t)read_le16(e + 4);
    int64_t span = (int64_t)1 << p->spanLog2;
    offset += (int64_t)(index & (uint64_t)(span - 1)) - span / 2;
    if (block >= p->blockLenCount) return false;
    while (offset < 0) {
        if (block == 0) return false;
        block--;
        offset += (int64_t)read_le16(p->blockLen + 2 * block) + 1;
    }
    while (offset > (int64_t)read_le16(p->blockLen + 2 * block)) {
        offset -= (int64_t)read_le16(p->blockLen + 2 * block) + 1;
        if (++block >= p->blockLenCount) return false;
    }
    if (block >= p->blockCount) return false;

    /* Huffman symbols from the block start until the one covering offset. */
    const uint8_t *bytes = p->blocks + (block << p->blockLog2);
    size_t blockBytes = (size_t)1 << p->blockLog2, pos = 0;
    uint64_t code = 0, consumed = 0;
    int filled = 0; /* valid bits at the top of code; beyond the block they are zeros */
    int sym;
    for (;;) {
        while (filled <= 56 && pos < blockBytes) {
            code |= (uint64_t)bytes[pos++] << (56 - filled);
            filled += 8;
        }
        int len = 0;
        while (code < p->base[len]) len++;
        int bits = len + p->minLen;
        sym = (int)read_le16(p->lowestSym + 2 * len) + (int)((code - p->base[len]) >> (64 - bits));
        if (sym >= p->symCount) return false;
        if (offset <= p->symLen[sym]) break;
        offset -= p->symLen[sym] + 1;
        code <<= bits;
        filled = filled > bits ? filled - bits : 0;
        consumed += (uint64_t)bits;
        if (consumed > (uint64_t)blockBytes * 8) return false;
    }

    /* Down the pair tree to the leaf holding the value. */
    while (p->symLen[sym]) {
        const uint8_t *w = p->symPairs + 3 * sym;
        int left = w[0] | (w[1] & 0xF) << 8;
        if (offset <= p->symLen[left]) {
            sym = left;
        } else {
            offset -= p->symLen[left] + 1;
            sym = w[1] >> 4 | w[2] << 4;
        }
    }
    const uint8_t *w = p->symPairs + 3 * sym;
    *value = w[0] | (w[1] & 0xF) << 8;
    return true;
}

bool tb_dtz_plies(const TbLayout *l, const TbPairs *p, int value, int wdl, int *plies) {
    static const int MapOfResult[5] = {1, 3, 0, 2, 0}; /* loss, blessed loss, -, cursed win, win */
    if (wdl < -2 || wdl > 2 || wdl == 0) return false;
    if ((p->flags & TB_FLAG_MAPPED) && !(p->flags & TB_FLAG_SINGLE)) {
        int slot = MapOfResult[wdl + 2];
        if (value < 0 || (unsigned)value >= p->mapCount[slot]) return false;
        const uint8_t *at = l->data + p->mapStart[slot];
        value = (p->flags & TB_FLAG_WIDE) ? (int)read_le16(at + 2 * value) : at[value];
    }
    bool storedInPlies = (wdl == 2 && (p->flags & TB_FLAG_WIN_PLIES)) || (wdl == -2 && (p->flags & TB_FLAG_LOSS_PLIES));
    if (!storedInPlies) value *= 2;
    *plies = value + 1;
    return true;
}
