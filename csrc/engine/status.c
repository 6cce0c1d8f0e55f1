/*
 * status.c - the names of cn_status values, for messages and for the
 * binding's error codes.
 */
#include "include/chess_native.h"

const char *cn_status_name(cn_status status) {
    switch (status) {
    case CN_OK:
        return "CN_OK";
    case CN_ERR_FEN:
        return "CN_ERR_FEN";
    case CN_ERR_ILLEGAL_MOVE:
        return "CN_ERR_ILLEGAL_MOVE";
    case CN_ERR_BAD_MOVE:
        return "CN_ERR_BAD_MOVE";
    case CN_ERR_INIT:
        return "CN_ERR_INIT";
    case CN_ERR_BAD_POSITION:
        return "CN_ERR_BAD_POSITION";
    case CN_ERR_UNSUPPORTED:
        return "CN_ERR_UNSUPPORTED";
    case CN_ERR_BAD_ARGUMENT:
        return "CN_ERR_BAD_ARGUMENT";
    case CN_ERR_NO_MEMORY:
        return "CN_ERR_NO_MEMORY";
    case CN_ERR_NO_THREAD:
        return "CN_ERR_NO_THREAD";
    }
    return "CN_ERR_UNKNOWN";
}
