/* A minimal Onitama bot in C for the hall's sandbox (compiled there with gcc -O2 -std=c17):
 * it reads the server's lines on standard input and writes its moves on standard output, one
 * line each (docs/bots.md). It plays a legal move: a win if it has one, else a capture, else
 * any move. Make it yours: change choose().
 *
 * The hall logs in for it, so the first line it reads is "LOGIN_OK|its-name"; then
 * "START|white|black|w1,w2,b1,b2,spare|secret", the moves ("MOVE_WAS_MADE|card|from|to", the
 * bot's own too) and at last "GAME_OVER|winner|reason". A line it does not know it ignores.
 * The protocol: docs/protocols/onitama.md.
 *
 * What it prints to standard error is its log: the hall keeps it with each game and shows it
 * to you (the author) only.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Each card's steps (dx, dy) from the mover's view: dx to the right, dy forward. */
typedef struct {
    const char *name;
    int steps;
    int d[4][2];
} Card;

static const Card CARDS[] = {
    {"Tiger", 2, {{0, 2}, {0, -1}}},
    {"Dragon", 4, {{-2, 1}, {2, 1}, {-1, -1}, {1, -1}}},
    {"Frog", 3, {{-2, 0}, {-1, 1}, {1, -1}}},
    {"Rabbit", 3, {{2, 0}, {1, 1}, {-1, -1}}},
    {"Crab", 3, {{0, 1}, {-2, 0}, {2, 0}}},
    {"Elephant", 4, {{-1, 1}, {1, 1}, {-1, 0}, {1, 0}}},
    {"Goose", 4, {{-1, 1}, {-1, 0}, {1, 0}, {1, -1}}},
    {"Rooster", 4, {{1, 1}, {-1, 0}, {1, 0}, {-1, -1}}},
    {"Monkey", 4, {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}}},
    {"Mantis", 3, {{-1, 1}, {1, 1}, {0, -1}}},
    {"Horse", 3, {{0, 1}, {-1, 0}, {0, -1}}},
    {"Ox", 3, {{0, 1}, {1, 0}, {0, -1}}},
    {"Crane", 3, {{0, 1}, {-1, -1}, {1, -1}}},
    {"Boar", 3, {{0, 1}, {-1, 0}, {1, 0}}},
    {"Eel", 3, {{-1, 1}, {-1, -1}, {1, 0}}},
    {"Cobra", 3, {{1, 1}, {1, -1}, {-1, 0}}},
};
#define NCARDS ((int)(sizeof CARDS / sizeof CARDS[0]))

enum { WHITE = 0, BLACK = 1 };

/* board[file][rank]: file 0..4 is a..e, rank 0..4 is 1..5. A piece is 'W' (White's master),
 * 'w' (a White student), 'B', 'b', or ' ' for an empty square. */
static struct {
    int playing;   /* between START and GAME_OVER */
    int me;        /* WHITE or BLACK */
    int to_move;   /* WHITE or BLACK */
    int hand[2][2]; /* each side's two cards (indexes into CARDS) */
    int spare;
    char board[5][5];
} game;

typedef struct {
    int card, from_file, from_rank, to_file, to_rank;
} Move;

static int card_index(const char *name) {
    for (int i = 0; i < NCARDS; i++)
        if (strcmp(CARDS[i].name, name) == 0) return i;
    return -1;
}

/* "c1" -> file 2, rank 0; 0 if it is not a square. */
static int parse_square(const char *text, int *file, int *rank) {
    if (strlen(text) != 2 || text[0] < 'a' || text[0] > 'e' || text[1] < '1' || text[1] > '5')
        return 0;
    *file = text[0] - 'a';
    *rank = text[1] - '1';
    return 1;
}

static int side_of(char piece) {
    if (piece == 'W' || piece == 'w') return WHITE;
    if (piece == 'B' || piece == 'b') return BLACK;
    return -1;
}

static int same_name(const char *a, const char *b) { /* names are compared ignoring case */
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

static void start(const char *me, const char *white, const char *black, char *cards) {
    int dealt[5], n = 0;
    for (char *name = strtok(cards, ","); name && n < 5; name = strtok(NULL, ","))
        dealt[n++] = card_index(name);
    if (n != 5) return;
    for (int i = 0; i < 5; i++)
        if (dealt[i] < 0) return; /* a card this bot does not know: it sits this game out */
    game.me = same_name(me, white) ? WHITE : BLACK;
    game.to_move = WHITE;
    game.hand[WHITE][0] = dealt[0];
    game.hand[WHITE][1] = dealt[1];
    game.hand[BLACK][0] = dealt[2];
    game.hand[BLACK][1] = dealt[3];
    game.spare = dealt[4];
    for (int f = 0; f < 5; f++) {
        for (int r = 0; r < 5; r++) game.board[f][r] = ' ';
        game.board[f][0] = f == 2 ? 'W' : 'w';
        game.board[f][4] = f == 2 ? 'B' : 'b';
    }
    game.playing = 1;
    fprintf(stderr, "playing %s\n", game.me == WHITE ? black : white);
}

/* The card used goes to the spare, the spare to the mover's hand. */
static void swap_card(int side, int card, int new_card) {
    for (int i = 0; i < 2; i++)
        if (game.hand[side][i] == card) {
            game.hand[side][i] = new_card;
            return;
        }
}

static void play(const char *card_name, const char *from, const char *to) {
    int card = card_index(card_name), ff, fr, tf, tr;
    if (card < 0 || !parse_square(from, &ff, &fr) || !parse_square(to, &tf, &tr)) return;
    char mover = game.board[ff][fr], taken = game.board[tf][tr];
    game.board[tf][tr] = mover;
    game.board[ff][fr] = ' ';
    /* A master taken, or one on the other side's temple arch, ends the game: GAME_OVER is
     * on its way, and a move now would be one too many. */
    if (taken == 'W' || taken == 'B' || (mover == 'W' && tf == 2 && tr == 4) ||
        (mover == 'B' && tf == 2 && tr == 0))
        game.playing = 0;
    swap_card(game.to_move, card, game.spare);
    game.spare = card;
    game.to_move = 1 - game.to_move;
}

/* Every legal move of the side to move, into moves[]; returns how many (at most 40). */
static int legal_moves(Move moves[]) {
    int side = game.to_move, n = 0;
    int sign = side == WHITE ? 1 : -1; /* Black reads each card turned by 180 degrees */
    for (int f = 0; f < 5; f++)
        for (int r = 0; r < 5; r++) {
            if (side_of(game.board[f][r]) != side) continue;
            for (int h = 0; h < 2; h++) {
                const Card *card = &CARDS[game.hand[side][h]];
                for (int s = 0; s < card->steps; s++) {
                    int nf = f + sign * card->d[s][0], nr = r + sign * card->d[s][1];
                    if (nf < 0 || nf > 4 || nr < 0 || nr > 4) continue;
                    if (side_of(game.board[nf][nr]) == side) continue; /* own piece there */
                    moves[n++] = (Move){game.hand[side][h], f, r, nf, nr};
                }
            }
        }
    return n;
}

/* Captures the other master, or takes one's own master to the other side's temple arch. */
static int wins(Move m) {
    char target = game.board[m.to_file][m.to_rank];
    int arch_rank = game.me == WHITE ? 4 : 0;
    return target == 'W' || target == 'B' ||
           (isupper((unsigned char)game.board[m.from_file][m.from_rank]) && m.to_file == 2 &&
            m.to_rank == arch_rank);
}

static Move choose(const Move moves[], int n) {
    Move best[40];
    int found = 0;
    for (int i = 0; i < n; i++)
        if (wins(moves[i])) best[found++] = moves[i];
    if (!found)
        for (int i = 0; i < n; i++)
            if (game.board[moves[i].to_file][moves[i].to_rank] != ' ') best[found++] = moves[i];
    if (found) return best[rand() % found];
    return moves[rand() % n];
}

static void move_if_my_turn(void) {
    if (!game.playing || game.to_move != game.me) return;
    Move moves[40]; /* 5 pieces x 2 cards x 4 steps */
    int n = legal_moves(moves);
    if (n == 0) {
        printf("STALEMATE|%s\n", CARDS[game.hand[game.me][0]].name);
    } else {
        Move m = choose(moves, n);
        printf("MAKE_MOVE|%s|%c%d|%c%d\n", CARDS[m.card].name, 'a' + m.from_file,
               m.from_rank + 1, 'a' + m.to_file, m.to_rank + 1);
    }
    fflush(stdout); /* the server reads the line only once it is sent */
}

/* Splits a line at '|' into at most max fields; empty fields stay (GAME_OVER||draw_agreed). */
static int split(char *line, char *fields[], int max) {
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '|') {
            *p = '\0';
            fields[n++] = p + 1;
        }
    return n;
}

int main(void) {
    char line[2048]; /* a line is at most 1024 bytes */
    char me[64] = "";
    srand((unsigned)time(NULL));
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *f[6];
        int n = split(line, f, 6);
        if (strcmp(f[0], "LOGIN_OK") == 0 && n > 1) {
            snprintf(me, sizeof me, "%s", f[1]);
        } else if (strcmp(f[0], "START") == 0 && n > 3) {
            start(me, f[1], f[2], f[3]);
            move_if_my_turn();
        } else if (strcmp(f[0], "MOVE_WAS_MADE") == 0 && n > 3 && game.playing) {
            play(f[1], f[2], f[3]);
            move_if_my_turn();
        } else if (strcmp(f[0], "STALEMATE_CARD") == 0 && n > 3 && game.playing) {
            /* the side to move had no move: it swapped a card for the spare, the turn passed */
            int old = card_index(f[1]), new_card = card_index(f[2]), spare = card_index(f[3]);
            if (old >= 0 && new_card >= 0 && spare >= 0) {
                swap_card(game.to_move, old, new_card);
                game.spare = spare;
            }
            game.to_move = 1 - game.to_move;
            move_if_my_turn();
        } else if (strcmp(f[0], "INVALID_MOVE") == 0) {
            move_if_my_turn(); /* should not happen: try again */
        } else if (strcmp(f[0], "GAME_OVER") == 0 && n > 2) {
            for (char *p = f[2]; *p; p++)
                if (*p == '_') *p = ' ';
            fprintf(stderr, "game over: %s won (%s)\n", *f[1] ? f[1] : "nobody", f[2]);
            game.playing = 0;
        }
    }
    return 0;
}
