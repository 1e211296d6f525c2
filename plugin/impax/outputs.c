#define _POSIX_C_SOURCE 200809L
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(const char *cmd, const char *option, const char *path, const char *reason)
{
    fprintf(stderr, "impax %s: cannot write %s '%s': %s\n", cmd, option, path, reason);
    return -1;
}

int cli_check_output(const char *cmd, const char *option, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return refuse(cmd, option, path, "it is a directory");
        return access(path, W_OK) == 0 ? 0 : refuse(cmd, option, path, strerror(errno));
    }
    if (errno != ENOENT) return refuse(cmd, option, path, strerror(errno));
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0) {
        char reason[4200];
        snprintf(reason, sizeof reason, "no directory '%s'", dir);
        return refuse(cmd, option, path, reason);
    }
    if (!S_ISDIR(st.st_mode)) return refuse(cmd, option, path, "its parent is not a directory");
    return access(dir, W_OK | X_OK) == 0 ? 0 : refuse(cmd, option, path, strerror(errno));
}
