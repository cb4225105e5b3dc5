#include "common/utf8.h"

#include "common/util.h"

/* Lead-byte classes: mask and value that identify the class, bits kept from the lead byte,
 * sequence length, and the smallest code point that may use that length (to reject overlongs). */
static const struct utf8_class {
    unsigned char mask, value, payload;
    size_t length;
    uint32_t min;
} utf8_classes[] = {
    {0xE0, 0xC0, 0x1F, 2, 0x80},
    {0xF0, 0xE0, 0x0F, 3, 0x800},
    {0xF8, 0xF0, 0x07, 4, 0x10000},
};

size_t gs_utf8_decode(const char *str, size_t len, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    if (len == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    for (size_t k = 0; k < COUNT_OF(utf8_classes); k++) {
        const struct utf8_class *c = &utf8_classes[k];
        if ((s[0] & c->mask) != c->value)
            continue;
        if (len < c->length)
            return 0;
        uint32_t v = s[0] & c->payload;
        for (size_t i = 1; i < c->length; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return 0;
            v = v << 6 | (s[i] & 0x3F);
        }
        if (v < c->min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
            return 0;
        *cp = v;
        return c->length;
    }
    return 0;
}
