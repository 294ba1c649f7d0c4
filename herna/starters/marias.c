/* A starter bot for licitovaný mariáš over CGML (docs/protocols/cgml.md) in C, for the hall's
 * sandbox (compiled there with gcc -O2 -std=c17).
 *
 * The hall logs in for the bot and joins its group: the bot reads CGML documents on standard
 * input and writes its answers on standard output, each document <cgml version="1.0"> ...
 * </cgml> followed by an empty line. The first is the login's answer (connect
 * status="complete"): its playerid is the bot's id. Then comes newgame (answer accept), the
 * deal (dial), the licitace (auction), the talon, the trumps, the flek and ten tricks; the
 * hall plays one deal. An element it does not know it ignores.
 *
 * This bot passes in the licitace (nic) and says no to every "do you have it?"; if everybody
 * passes and it, the forhont, wins the hra, it lays two low cards into the talon (never an eso
 * or desítka) and takes its longest suit as trumps (not červené: red trumps are the lepší
 * hra). It keeps every flek as offered, and in the tricks plays the lowest card the rules
 * allow: follow suit and overtake (přebít) when it can, else trump (and overtrump), else any
 * card. Change play(), discard(), trumps_suit() and the licitace answer in handle().
 *
 * C has no XML library in its standard one: the few helpers below read the CGML the server
 * writes (one level of elements in <cgml>, no element inside one of its own name).
 *
 * What it prints to standard error is its log: the hall keeps it with each game and shows it
 * to you (the author) only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A card is three characters: the suit (R červené, B kule, G zelené, A žaludy) and the value
 * (07 08 09 10 0J spodek, 0Q svršek, 0K král, 0A eso): "G0K" is the zelený král. */
typedef char Card[4];

static const char *TRUMP_ORDER[] = {"07", "08", "09", "0J", "0Q", "0K", "10", "0A"};
static const char *PLAIN_ORDER[] = {"07", "08", "09", "10", "0J", "0Q", "0K", "0A"}; /* betl, durch */

static struct {
    char me[128];
    Card hand[12];
    int in_hand;
    char trumps; /* a suit letter, or 0: betl/durch (no trumps) */
    const char **order;
    Card trick[3];
    int on_trick;
} deal;

/* ---- reading CGML ---- */

/* The value of attribute `name` in the start tag `tag` (up to its '>') into out; "" if none. */
static void attribute(const char *tag, const char *name, char *out, size_t size) {
    const char *end = strchr(tag, '>');
    size_t length = strlen(name);
    out[0] = '\0';
    for (const char *p = tag + 1; end && p < end; p++) {
        if (p[-1] == ' ' && strncmp(p, name, length) == 0 && p[length] == '=' &&
            (p[length + 1] == '"' || p[length + 1] == '\'')) {
            const char *value = p + length + 2, *close = strchr(value, p[length + 1]);
            if (!close) return;
            snprintf(out, size, "%.*s", (int)(close - value), value);
            return;
        }
    }
}

/* The text of the first <name>...</name> in [from, to) into out ("" if none): whether found. */
static int child_text(const char *from, const char *to, const char *name, char *out, size_t size) {
    char open[32], close[32];
    snprintf(open, sizeof open, "<%s", name);
    snprintf(close, sizeof close, "</%s>", name);
    out[0] = '\0';
    size_t length = strlen(open);
    const char *start = strstr(from, open);
    while (start && start < to && start[length] != '>' && start[length] != ' ')
        start = strstr(start + 1, open); /* <name> or <name attributes>, not <names> */
    if (!start || start >= to || !(start = strchr(start, '>'))) return 0;
    start++;
    const char *end = strstr(start, close);
    if (!end || end > to) return 0;
    while (start < end && strchr(" \t\r\n", *start)) start++; /* the text, trimmed */
    while (end > start && strchr(" \t\r\n", end[-1])) end--;
    snprintf(out, size, "%.*s", (int)(end - start), start);
    return 1;
}

/* The card codes in [from, to) (empty <card></card> of others' cards skipped); how many. */
static int cards_in(const char *from, const char *to, Card cards[], int max) {
    int n = 0;
    for (const char *p = strstr(from, "<card>"); p && p < to && n < max; p = strstr(p, "<card>")) {
        p += 6;
        if (strncmp(p, "</card>", 7) != 0 && strlen(p) >= 3) {
            memcpy(cards[n], p, 3);
            cards[n++][3] = '\0';
        }
    }
    return n;
}

/* ---- the cards ---- */

static int strength(const char *card) {
    for (int i = 0; i < 8; i++)
        if (strcmp(deal.order[i], card + 1) == 0) return i;
    return -1;
}

static int trump_rank(const char *card) { /* the order for the talon, whatever the game */
    for (int i = 0; i < 8; i++)
        if (strcmp(TRUMP_ORDER[i], card + 1) == 0) return i;
    return -1;
}

static void remove_card(const char *card) {
    for (int i = 0; i < deal.in_hand; i++)
        if (strcmp(deal.hand[i], card) == 0) {
            memcpy(deal.hand[i], deal.hand[--deal.in_hand], sizeof(Card));
            return;
        }
}

/* Keeps the cards of the hand in suit s, above `above` in strength (-1: all); how many. */
static int of_suit(char s, int above, const char *out[]) {
    int n = 0;
    for (int i = 0; i < deal.in_hand; i++)
        if (deal.hand[i][0] == s && strength(deal.hand[i]) > above) out[n++] = deal.hand[i];
    return n;
}

/* The strongest card of suit s on the trick, -1 if none. */
static int best_on_trick(char s) {
    int best = -1;
    for (int i = 0; i < deal.on_trick; i++)
        if (deal.trick[i][0] == s && strength(deal.trick[i]) > best) best = strength(deal.trick[i]);
    return best;
}

/* The cards of the hand the rules allow on the trick so far, into out; how many. */
static int legal(const char *out[]) {
    int n;
    if (deal.on_trick > 0) {
        char led = deal.trick[0][0];
        if (of_suit(led, -1, out) > 0) { /* follow suit */
            if (deal.trumps && led != deal.trumps && best_on_trick(deal.trumps) >= 0)
                return of_suit(led, -1, out); /* trumped already: any card of the suit led */
            n = of_suit(led, best_on_trick(led), out); /* přebít if it can */
            return n ? n : of_suit(led, -1, out);
        }
        if (deal.trumps && of_suit(deal.trumps, -1, out) > 0) { /* else trump, overtrump */
            n = of_suit(deal.trumps, best_on_trick(deal.trumps), out);
            return n ? n : of_suit(deal.trumps, -1, out);
        }
    }
    for (n = 0; n < deal.in_hand; n++) out[n] = deal.hand[n];
    return n;
}

/* The card to play: the lowest one allowed. */
static const char *play(void) {
    const char *allowed[12];
    int n = legal(allowed);
    const char *lowest = allowed[0];
    for (int i = 1; i < n; i++)
        if (strength(allowed[i]) < strength(lowest)) lowest = allowed[i];
    return lowest;
}

/* Two cards for the talon: the lowest that are neither eso nor desítka. */
static void discard(Card two[2]) {
    int found = 0;
    for (int rank = 0; rank < 8 && found < 2; rank++)
        for (int i = 0; i < deal.in_hand && found < 2; i++) {
            const char *c = deal.hand[i];
            if (trump_rank(c) == rank && strcmp(c + 1, "0A") != 0 && strcmp(c + 1, "10") != 0)
                memcpy(two[found++], c, sizeof(Card));
        }
}

/* The trump suit for the hra: the longest of kule, zelené, žaludy. */
static char trumps_suit(void) {
    const char *suits = "BGA", *cards[12];
    char best = 'B';
    int most = -1;
    for (int i = 0; i < 3; i++) {
        int n = of_suit(suits[i], -1, cards);
        if (n > most) most = n, best = suits[i];
    }
    return best;
}

/* ---- talking ---- */

static void send(const char *body) {
    printf("<cgml version=\"1.0\">\r\n%s\r\n</cgml>\r\n\r\n", body);
    fflush(stdout); /* the server reads the document only once it is sent */
}

/* One element of a document: its name, start tag and content [body, end). */
static void handle(const char *name, const char *tag, const char *body, const char *end) {
    char kind[32], text[256], buffer[512];
    attribute(tag, "type", kind, sizeof kind);
    if (!kind[0]) attribute(tag, "status", kind, sizeof kind);
    while (body < end && strchr(" \t\r\n", *body)) body++; /* the text, if it is one, */
    size_t length = (size_t)(end - body);                       /* trimmed */
    while (length && strchr(" \t\r\n", body[length - 1])) length--;
    snprintf(text, sizeof text, "%.*s", (int)length, body);

    if (strcmp(name, "connect") == 0 && strcmp(kind, "complete") == 0) {
        attribute(tag, "playerid", deal.me, sizeof deal.me);
        fprintf(stderr, "I am %s playing with", deal.me);
        for (const char *p = strstr(body, "<player"); p && p < end; p = strstr(p + 1, "<player")) {
            char player[128];
            child_text(p, end, "name", player, sizeof player);
            fprintf(stderr, " %s", player);
        }
        fprintf(stderr, "\n");
    } else if (strcmp(name, "newgame") == 0 && strcmp(kind, "ask") == 0) {
        deal.in_hand = deal.on_trick = 0;
        deal.trumps = 0;
        deal.order = TRUMP_ORDER;
        snprintf(buffer, sizeof buffer, "<newgame status=\"accept\"><player id=\"%s\"/></newgame>",
                 deal.me);
        send(buffer);
    } else if (strcmp(name, "dial") == 0 && strcmp(kind, "cards") == 0) {
        deal.in_hand += cards_in(body, end, deal.hand + deal.in_hand, 12 - deal.in_hand);
        char from[16];
        attribute(tag, "from", from, sizeof from);
        if (strcmp(from, "talon") == 0) { /* I won the licitace: the talon is mine */
            Card two[2];
            discard(two);
            remove_card(two[0]);
            remove_card(two[1]);
            fprintf(stderr, "talon: discarding %s %s\n", two[0], two[1]);
            snprintf(buffer, sizeof buffer,
                     "<playcard type=\"cards\" from=\"hand\" to=\"talon\"><card>%s</card>"
                     "<card>%s</card></playcard>",
                     two[0], two[1]);
            send(buffer);
        }
    } else if (strcmp(name, "licite") == 0 && strcmp(kind, "ask") == 0) {
        /* an empty ask: offer a game (nic); a game in it: "do you have it?" (no) */
        send(text[0] ? "<licite type=\"answer\">NO</licite>" : "<licite type=\"answer\">PASS</licite>");
    } else if (strcmp(name, "gametype") == 0 && strcmp(kind, "ask") == 0) {
        char game[16];
        if (!child_text(body, end, "licite", game, sizeof game) || !game[0]) strcpy(game, "G");
        char suit = trumps_suit();
        fprintf(stderr, "I play %s with trumps %c\n", game, suit);
        snprintf(buffer, sizeof buffer,
                 "<gametype type=\"answer\"><licite>%s</licite><trumf>%c</trumf></gametype>", game,
                 suit);
        send(buffer);
    } else if (strcmp(name, "gametype") == 0 && strcmp(kind, "info") == 0) {
        char game[16], trumf[16];
        child_text(body, end, "licite", game, sizeof game);
        if (!child_text(body, end, "trumf", trumf, sizeof trumf))
            child_text(body, end, "trumpf", trumf, sizeof trumf);
        deal.trumps = trumf[0] >= 'a' && trumf[0] <= 'z' ? (char)(trumf[0] - 'a' + 'A') : trumf[0];
        deal.order = strcmp(game, "SMALL") == 0 || strcmp(game, "BIG") == 0 ? PLAIN_ORDER
                                                                             : TRUMP_ORDER;
    } else if (strcmp(name, "flek") == 0 && strcmp(kind, "ask") == 0) {
        snprintf(buffer, sizeof buffer, "<flek type=\"answer\">%s</flek>", text[0] ? text : "1");
        send(buffer);
    } else if (strcmp(name, "playcard") == 0 && strcmp(kind, "ask") == 0) {
        Card card;
        if (deal.in_hand == 0) return;
        memcpy(card, play(), sizeof card);
        remove_card(card);
        snprintf(buffer, sizeof buffer,
                 "<playcard type=\"cards\" from=\"hand\" to=\"desk\"><card>%s</card></playcard>",
                 card);
        send(buffer);
    } else if (strcmp(name, "playcard") == 0 && strcmp(kind, "info") == 0) {
        char to[16];
        attribute(tag, "to", to, sizeof to);
        if (strcmp(to, "desk") == 0)
            deal.on_trick += cards_in(body, end, deal.trick + deal.on_trick, 3 - deal.on_trick);
    } else if (strcmp(name, "round") == 0) {
        deal.on_trick = 0;
    } else if (strcmp(name, "error") == 0) {
        char code[64];
        attribute(tag, "code", code, sizeof code);
        fprintf(stderr, "the server says: %s %s\n", code, text);
    } else if (strcmp(name, "result") == 0) {
        for (const char *p = strchr(body, '<'); p && p < end; p = strchr(p + 1, '<')) {
            int winner = strncmp(p, "<winner ", 8) == 0;
            if (!winner && strncmp(p, "<loser ", 7) != 0) continue;
            char id[128], money[32];
            attribute(p, "playerid", id, sizeof id);
            child_text(p, end, "money", money, sizeof money);
            if (strcmp(id, deal.me) == 0)
                fprintf(stderr, "result: %s %s\n", winner ? "winner" : "loser", money);
        }
    }
}

/* Each element directly inside <cgml>...</cgml>, in order. */
static void handle_document(const char *doc) {
    const char *p = strstr(doc, "<cgml");
    p = p ? strchr(p, '>') : NULL;
    while (p && (p = strchr(p, '<')) != NULL && strncmp(p, "</cgml", 6) != 0) {
        if (p[1] == '?' || p[1] == '!') { /* a declaration or comment: skip it */
            p = strchr(p, '>');
            continue;
        }
        char name[32], close[40];
        size_t length = strcspn(p + 1, " \t\r\n/>");
        snprintf(name, sizeof name, "%.*s", (int)length, p + 1);
        const char *tag_end = strchr(p, '>');
        if (!tag_end) return;
        if (tag_end[-1] == '/') { /* <name .../>: no content */
            handle(name, p, tag_end, tag_end);
            p = tag_end;
            continue;
        }
        snprintf(close, sizeof close, "</%s>", name);
        const char *end = strstr(tag_end + 1, close);
        if (!end) return;
        handle(name, p, tag_end + 1, end);
        p = end + strlen(close);
    }
}

int main(void) {
    static char doc[1 << 16]; /* the server's documents are short; a longer one is cut */
    char line[4096];
    size_t used = 0;
    deal.order = TRUMP_ORDER;
    while (fgets(line, sizeof line, stdin)) {
        size_t before = used, length = strlen(line);
        const char *look = line;
        if (used + length < sizeof doc) {
            memcpy(doc + used, line, length + 1);
            used += length;
            look = doc + (before > 7 ? before - 7 : 0); /* "</cgml>" may straddle two reads */
        }
        if (strstr(look, "</cgml>")) {
            handle_document(doc);
            used = 0;
            doc[0] = '\0';
        }
    }
    return 0;
}
