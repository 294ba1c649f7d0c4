/* A starter bot for Herna's tile games (docs/protocols/tiles.md) in C, for the hall's sandbox
 * (compiled there with gcc -O2 -std=c17).
 *
 * It reads the server's JSON messages on standard input, one per line, and writes its own on
 * standard output. The hall has joined the table for it already: the first line is "joined".
 * Every "your_turn" lists the legal actions in the form to send back, so a bot only has to
 * choose one and send it as {"type":"act","action":...}; this one takes a random move (moving
 * is what reaches goals), else any action. Change choose(). A message it does not know it
 * ignores.
 *
 * C has no JSON library in its standard one, so this file has a small reader below: enough to
 * find a member of an object and walk an array, and to copy a value's text as it came (an
 * action is sent back exactly as it was listed).
 *
 * What it prints to standard error is its log: the hall keeps it with each game and shows it
 * to you (the author) only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- a small JSON reader: it never copies, it points into the line ---- */

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* The end of the JSON value starting at p (after its last character); NULL if it is broken. */
static const char *skip_value(const char *p) {
    p = skip_space(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1]) p++; /* an escaped character, \" included */
        return *p ? p + 1 : NULL;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (*p) {
            if (*p == '"') {
                p = skip_value(p);
                if (!p) return NULL;
                continue;
            }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') depth--;
            p++;
            if (depth == 0) return p;
        }
        return NULL;
    }
    /* a number, true, false or null */
    const char *start = p;
    while (*p && !strchr(",}] \t\r\n", *p)) p++;
    return p > start ? p : NULL;
}

/* The value of member `key` of the object at p, or NULL. */
static const char *member(const char *p, const char *key) {
    if (!p) return NULL;
    p = skip_space(p);
    if (*p != '{') return NULL;
    p = skip_space(p + 1);
    size_t length = strlen(key);
    while (*p == '"') {
        const char *name = p + 1, *end = skip_value(p);
        if (!end) return NULL;
        p = skip_space(end);
        if (*p != ':') return NULL;
        const char *value = skip_space(p + 1);
        if ((size_t)(end - 1 - name) == length && strncmp(name, key, length) == 0) return value;
        p = skip_value(value);
        if (!p) return NULL;
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
    }
    return NULL;
}

/* Whether the value at p is the string `text` (escapes are not decoded: fine for the
 * protocol's own words such as "your_turn"). */
static int is_string(const char *p, const char *text) {
    size_t length = strlen(text);
    return p && *p == '"' && strncmp(p + 1, text, length) == 0 && p[1 + length] == '"';
}

/* Writes the value at p to the log: a string without its quotes, anything else as it is. */
static void log_value(const char *p) {
    const char *end = p ? skip_value(p) : NULL;
    if (!end) fprintf(stderr, "?");
    else if (*p == '"') fprintf(stderr, "%.*s", (int)(end - p - 2), p + 1);
    else fprintf(stderr, "%.*s", (int)(end - p), p);
}

/* The elements of the array at p: their starts into items[] (at most max); how many. */
static int elements(const char *p, const char *items[], int max) {
    int n = 0;
    if (!p || *p != '[') return 0;
    p = skip_space(p + 1);
    while (*p && *p != ']' && n < max) {
        items[n++] = p;
        p = skip_value(p);
        if (!p) return n - 1;
        p = skip_space(p);
        if (*p == ',') p = skip_space(p + 1);
    }
    return n;
}

/* ---- the bot ---- */

#define MAX_ACTIONS 4096

/* The action to play: one of the listed ones (every legal one is listed). */
static const char *choose(const char *actions[], int n) {
    static const char *moves[MAX_ACTIONS];
    int found = 0;
    for (int i = 0; i < n; i++) {
        const char *type = member(actions[i], "type");
        if (is_string(type, "move") || is_string(type, "moveAll")) moves[found++] = actions[i];
    }
    /* Moving is what reaches goals; other kinds of turn (push, add, exchange) are any. */
    if (found) return moves[rand() % found];
    return actions[rand() % n];
}

/* One line of standard input, however long (a "joined" carries the whole rules); NULL at
 * the end. The buffer is reused from line to line. */
static char *read_line(void) {
    static char *buffer = NULL;
    static size_t size = 0;
    size_t used = 0;
    for (;;) {
        if (size - used < 4096) {
            size = size ? size * 2 : 65536;
            buffer = realloc(buffer, size);
            if (!buffer) return NULL;
        }
        if (!fgets(buffer + used, (int)(size - used), stdin)) return used ? buffer : NULL;
        used += strlen(buffer + used);
        if (used && buffer[used - 1] == '\n') return buffer;
    }
}

int main(void) {
    static const char *actions[MAX_ACTIONS];
    char *line;
    srand((unsigned)time(NULL));
    while ((line = read_line()) != NULL) {
        const char *type = member(line, "type");
        if (is_string(type, "joined")) {
            fprintf(stderr, "sitting at ");
            log_value(member(line, "table"));
            fprintf(stderr, " as ");
            log_value(member(line, "name"));
            fprintf(stderr, " playing ");
            log_value(member(line, "rules_name"));
            fprintf(stderr, "\n");
        } else if (is_string(type, "started")) {
            const char *seats[16];
            int n = elements(member(line, "seats"), seats, 16);
            fprintf(stderr, "the game begins:");
            for (int i = 0; i < n; i++) {
                fprintf(stderr, i ? ", " : " ");
                log_value(member(seats[i], "name")); /* an empty seat is null: "?" */
            }
            fprintf(stderr, "\n");
        } else if (is_string(type, "your_turn")) {
            int n = elements(member(line, "actions"), actions, MAX_ACTIONS);
            if (n == 0) continue; /* nothing listed: nothing to send */
            const char *action = choose(actions, n);
            int length = (int)(skip_value(action) - action);
            printf("{\"type\":\"act\",\"action\":%.*s}\n", length, action);
            fflush(stdout); /* the server reads the line only once it is sent */
            fprintf(stderr, "my turn (");
            log_value(member(line, "action"));
            fprintf(stderr, "): %.*s\n", length, action);
        } else if (is_string(type, "error")) {
            fprintf(stderr, "the server says: ");
            log_value(member(line, "code"));
            fprintf(stderr, " ");
            log_value(member(line, "reason"));
            fprintf(stderr, "\n");
        } else if (is_string(type, "game_over")) {
            const char *result = member(line, "result");
            fprintf(stderr, "game over: ");
            log_value(member(result, "reason"));
            fprintf(stderr, " winners: ");
            log_value(member(result, "winner_names"));
            fprintf(stderr, "\n");
            break;
        }
    }
    return 0;
}
