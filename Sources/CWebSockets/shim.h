#pragma once
#include <libwebsockets.h>
