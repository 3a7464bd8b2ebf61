/*
 * Compiled part of planner.report.sweep_export: rows of a JSON or CSV export assembled from
 * its columns' tokens in one pass.
 *
 * Each column arrives encoded whole (orjson writes a NumPy array's numbers in one call);
 * this joins row r as  opener  token(0, r)  separator(1)  token(1, r) ...  closer, with the
 * first row's opener apart, and writes every float the way Python's repr does (what the
 * json module writes): orjson gives the same shortest digits in another layout
 * (1.5e-7 for 1.5e-07, 0.0000123 for 1.23e-05, 1e16 for 1e+16).
 *
 * Column kinds:
 *   0  bytes: `count` tokens separated by commas, copied as they are (ints, literals);
 *   1  bytes: `count` orjson floats separated by commas, rewritten as repr writes them;
 *   2  a tuple of bytes (the distinct texts, encoded) and an int64 buffer of `count`
 *      indices into it;
 *   3  bytes as kind 1 and a float64 buffer of the same `count` floats: CSV's cells,
 *      rounded to 15 significant digits (see put_csv_float).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TOKENS = 0, FLOATS = 1, TEXTS = 2, CSV_FLOATS = 3 };

/* Significant digits of a float in CSV (planner.report.table.CSV_DIGITS). */
#define CSV_DIGITS 15

typedef struct {
    int kind;
    const char *data; /* kinds 0, 1, 3: the cursor into the encoded column */
    const char *end;
    PyObject *texts;  /* kind 2 */
    const char **text_data; /* kind 2: each distinct text's bytes and length, read */
    Py_ssize_t *text_len;   /* without the GIL */
    const long long *index;
    const double *values; /* kind 3 */
    Py_buffer view;   /* kinds 0, 1, 3: data; kind 2: index */
    Py_buffer values_view; /* kind 3: values */
    Py_ssize_t text_count;
    const char *separator; /* written before this column's token (not the first's) */
    size_t separator_len;
} Column;

typedef struct {
    char *buf;
    size_t len, cap;
} Out;

static int grow(Out *o, size_t extra) {
    if (o->len + extra <= o->cap) return 0;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + extra) cap *= 2;
    char *buf = PyMem_RawRealloc(o->buf, cap);
    if (!buf) return -1;
    o->buf = buf;
    o->cap = cap;
    return 0;
}

static int put(Out *o, const char *s, size_t n) {
    if (grow(o, n)) return -1;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    return 0;
}

/* The next comma-separated token of a column, or NULL when there is none. */
static const char *next_token(Column *c, size_t *n) {
    if (c->data >= c->end) return NULL;
    const char *start = c->data;
    const char *comma = memchr(start, ',', (size_t)(c->end - start));
    const char *stop = comma ? comma : c->end;
    *n = (size_t)(stop - start);
    c->data = comma ? comma + 1 : c->end;
    return start;
}

/* A float token (orjson's layout) written as Python's repr writes the same number:
 * the digits d1 d2 ... dk with the value 0.d1d2...dk x 10^point; fixed notation when
 * -4 < point <= 16, else d1.d2...dk e(+|-)XX (at least two exponent digits). */
static int put_float_general(Out *o, const char *s, size_t n);

/* Two layouts orjson shares with repr need no rewriting: a fixed number of at least 1e-4
 * with a decimal point ("0.00123", "12.5"), and an exponent form whose exponent already
 * has two digits and a sign ("1.5e-07" is not orjson's, "1.5e-7" is: rewritten). */
static int put_float(Out *o, const char *s, size_t n) {
    const char *digits = s + (n && s[0] == '-');
    size_t rest = n - (size_t)(digits - s);
    const char *e = memchr(s, 'e', n);
    if (!e && memchr(s, '.', n) && !(rest >= 6 && memcmp(digits, "0.0000", 6) == 0) &&
        rest > 0 && digits[0] >= '0' && digits[0] <= '9')
        return put(o, s, n);
    if (e && e > s && e + 1 < s + n && e[-1] != '.') {
        /* mantissa d[.ddd] then e, an optional '-', 1 to 3 digits: pad to two, add '+' */
        const char *x = e + 1;
        int minus = *x == '-';
        x += minus || *x == '+';
        size_t exp_len = (size_t)(s + n - x);
        int simple = exp_len >= 1 && exp_len <= 3 && digits[0] >= '1' && digits[0] <= '9' &&
                     (digits + 1 == e || digits[1] == '.');
        for (size_t i = 0; simple && i < exp_len; i++) simple = x[i] >= '0' && x[i] <= '9';
        /* repr writes 1e-05 .. 9.99e-05 and 1e+16 on: orjson's exponent forms start at
         * 1e-5 downwards and 1e16 upwards, so every one of them is an exponent form there */
        if (simple && !(exp_len > 1 && x[0] == '0')) {
            if (grow(o, n + 3)) return -1;
            char *out = o->buf + o->len;
            size_t mantissa = (size_t)(e - s);
            memcpy(out, s, mantissa);
            out += mantissa;
            *out++ = 'e';
            *out++ = minus ? '-' : '+';
            if (exp_len == 1) *out++ = '0';
            memcpy(out, x, exp_len);
            out += exp_len;
            o->len = (size_t)(out - o->buf);
            return 0;
        }
    }
    return put_float_general(o, s, n);
}

/* A number as its significant digits d1 d2 ... dk (no leading or trailing zeros; k = 0
 * for zero) and its decimal point: the value is (-1)^negative 0.d1d2...dk x 10^point. */
typedef struct {
    char digits[400];
    int count, point, negative;
} Digits;

/* Any float token (a sign, digits with a decimal point, an exponent) read to Digits;
 * 1 when it is not one. */
static int parse_digits(const char *s, size_t n, Digits *v) {
    /* count and point in locals: a char stored to v->digits could alias v's ints */
    int count = 0, point = 0, seen_point = 0, exponent = 0;
    size_t i = 0;
    v->negative = i < n && s[i] == '-';
    i += (size_t)v->negative;
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            seen_point = 1;
            continue;
        }
        if (s[i] < '0' || s[i] > '9') return 1;
        if (count == 0 && s[i] == '0') { /* a leading zero: moves the point if before it */
            if (seen_point) point--;
            continue;
        }
        if (count >= (int)sizeof v->digits) return 1;
        v->digits[count++] = s[i];
        if (!seen_point) point++;
    }
    if (i < n) { /* the exponent */
        int sign = 1;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) sign = s[i++] == '-' ? -1 : 1;
        if (i >= n) return 1;
        for (; i < n; i++) {
            if (s[i] < '0' || s[i] > '9' || exponent > 10000) return 1;
            exponent = exponent * 10 + (s[i] - '0');
        }
        point += sign * exponent;
    }
    while (count > 0 && v->digits[count - 1] == '0') count--;
    v->count = count;
    v->point = point;
    return 0;
}

/* Digits written in repr's layout: fixed notation when -4 < point <= 16 (".0" after a
 * whole number), else d1.d2...dk e(+|-)XX with at least two exponent digits. */
static int put_repr(Out *o, const Digits *v) {
    int count = v->count, point = v->point;
    const char *digits = v->digits;
    /* at most: sign, "0.", 4 zeros or 16 digits of padding, the digits, "e-308" */
    if (grow(o, (size_t)count + 32)) return -1;
    char *text = o->buf + o->len, *start = text;
    if (v->negative) *text++ = '-';
    if (count == 0) {
        memcpy(text, "0.0", 3);
        o->len += (size_t)(text + 3 - start);
        return 0;
    }
    if (point > -4 && point <= 16) {
        if (point <= 0) {
            *text++ = '0';
            *text++ = '.';
            for (int z = 0; z < -point; z++) *text++ = '0';
            memcpy(text, digits, (size_t)count);
            text += count;
        } else if (point >= count) {
            memcpy(text, digits, (size_t)count);
            text += count;
            for (int z = count; z < point; z++) *text++ = '0';
            *text++ = '.';
            *text++ = '0';
        } else {
            memcpy(text, digits, (size_t)point);
            text += point;
            *text++ = '.';
            memcpy(text, digits + point, (size_t)(count - point));
            text += count - point;
        }
    } else {
        int e = point - 1;
        *text++ = digits[0];
        if (count > 1) {
            *text++ = '.';
            memcpy(text, digits + 1, (size_t)(count - 1));
            text += count - 1;
        }
        *text++ = 'e';
        *text++ = e < 0 ? '-' : '+';
        if (e < 0) e = -e;
        if (e >= 100) *text++ = (char)('0' + e / 100);
        *text++ = (char)('0' + e / 10 % 10);
        *text++ = (char)('0' + e % 10);
    }
    o->len += (size_t)(text - start);
    return 0;
}

/* Any float token, parsed to digits and a decimal point and written in repr's layout. */
static int put_float_general(Out *o, const char *s, size_t n) {
    Digits v;
    return parse_digits(s, n, &v) ? 1 : put_repr(o, &v);
}

/* CSV's cells: repr(float("%.15g" % x)), what csv_chunks writes (15 significant digits).
 *
 * They start from x's shortest digits s (orjson's token, as repr's: the shortest decimal
 * that reads back to x, the nearest such). Call r the decimal x rounds to at 15 digits
 * and y the double r reads back to: the cell is repr(y).
 *   s of at most 15 digits: for a normal x, the doubles reading back to x span less than
 *   the 15-digit decimals' spacing, so r is s; for a subnormal x the span is symmetric,
 *   so r, no farther from x than s, reads back to x: y is x and repr writes s.
 *   s of 16 or 17 digits: rounding them to 15 gives r (a 15-digit half-way point between
 *   x and s would be a 16-digit decimal reading back to x nearer than s, which repr would
 *   write instead), except when s is d1..d15 followed by a single 5 (about one float in
 *   twenty): x itself may lie above, below or on that half (on it: half to even, as
 *   Python's and glibc's printf round), which tie_side settles exactly. repr(y) writes
 *   r's digits: 15 digits tell normal doubles apart, and where they do not (subnormal y),
 *   s needed 16 digits, so no two 15-digit decimals read back to the same double.
 * put_repr writes the digits in repr's layout. Two kinds go through the C library, whose
 * printf and strtod are correctly rounded (glibc's are) but take a microsecond: the ties
 * tie_side cannot settle, and values that may round to infinity (repr writes "inf"). */
static int put_csv_float_slow(Out *o, double x) {
    char text[40];
    int n = snprintf(text, sizeof text, "%.15g", x);
    double rounded = strtod(text, NULL);
    if (isinf(rounded)) return put(o, rounded < 0 ? "-inf" : "inf", rounded < 0 ? 4 : 3);
    /* the decimal point is the locale's (in a locale that writes "1,5" strtod reads it) */
    for (int i = 0; i < n; i++)
        if (!(text[i] >= '0' && text[i] <= '9') && text[i] != '-' && text[i] != '+' &&
            text[i] != 'e')
            text[i] = '.';
    return put_float_general(o, text, (size_t)n);
}

/* Whether the double |x| lies above (1), below (-1) or on (0) the decimal
 * digits x 10^exponent (digits < 2^54), compared exactly in 128-bit integers: |x| is
 * m 2^e (m < 2^53) and 10^exponent is 5^exponent 2^exponent, so 5^|exponent| multiplies
 * one side and the powers of two become a shift. 2 (printf decides) when 5^|exponent|
 * would not fit (|exponent| > 31: x below 1e-16 or from 1e47 on) or the compiler has no
 * 128-bit integers. */
static int tie_side(double x, unsigned long long digits, int exponent) {
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128; /* GCC and Clang */
    int e;
    u128 left = (u128)ldexp(frexp(fabs(x), &e), 53), right = digits; /* |x| = left 2^(e-53) */
    if (exponent < -31 || exponent > 31) return 2;
    for (int i = 0; i < (exponent < 0 ? -exponent : exponent); i++) {
        if (exponent < 0)
            left *= 5; /* both stay below 2^54 5^31 < 2^126 */
        else
            right *= 5;
    }
    int shift = e - 53 - exponent; /* |x| against digits 10^exponent: left 2^shift, right */
    u128 *shifted = shift >= 0 ? &left : &right; /* the side times 2^bits */
    int bits = shift >= 0 ? shift : -shift;
    /* digits that read back to x agree with it to 1e-15: no overflow (else printf decides) */
    if (bits >= 128 || (*shifted >> (127 - bits)) != 0) return 2;
    *shifted <<= bits;
    return (left > right) - (left < right);
#else
    (void)x, (void)digits, (void)exponent;
    return 2;
#endif
}

/* The CSV cell of x, whose shortest digits orjson wrote as s (see above); NaN, a figure
 * not computed, is an empty cell (as None is), an infinity "inf" or "-inf" (str's). */
static int put_csv_float(Out *o, const char *s, size_t n, double x) {
    if (isnan(x)) return 0;
    if (isinf(x)) return put(o, x < 0 ? "-inf" : "inf", x < 0 ? 4 : 3);
    if (fabs(x) > 1.7976931348623e308) return put_csv_float_slow(o, x); /* may round to inf */
    Digits v;
    if (parse_digits(s, n, &v)) return 1;
    if (v.count > CSV_DIGITS) {
        int up = v.digits[CSV_DIGITS] >= '5'; /* a 5 with more digits after: above half */
        if (v.count == CSV_DIGITS + 1 && v.digits[CSV_DIGITS] == '5') {
            unsigned long long digits = 0;
            for (int i = 0; i < v.count; i++) digits = digits * 10 + (unsigned)(v.digits[i] - '0');
            int side = tie_side(x, digits, v.point - v.count);
            if (side == 2) return put_csv_float_slow(o, x);
            up = side > 0 || (side == 0 && (v.digits[CSV_DIGITS - 1] - '0') % 2);
        }
        v.count = CSV_DIGITS;
        if (up) {
            int i = CSV_DIGITS - 1;
            while (i >= 0 && v.digits[i] == '9') v.digits[i--] = '0';
            if (i >= 0) {
                v.digits[i]++;
            } else { /* 99...9 rounds up to 10...0: one digit more before the point */
                v.digits[0] = '1';
                v.point++;
            }
        }
        while (v.count > 0 && v.digits[v.count - 1] == '0') v.count--;
    }
    return put_repr(o, &v);
}

static void release(Column *columns, Py_ssize_t n) {
    for (Py_ssize_t c = 0; c < n; c++) {
        if (columns[c].view.obj) PyBuffer_Release(&columns[c].view);
        if (columns[c].values_view.obj) PyBuffer_Release(&columns[c].values_view);
        PyMem_Free(columns[c].text_data);
        PyMem_Free(columns[c].text_len);
    }
    PyMem_Free(columns);
}

static const char doc_join_rows[] =
    "join_rows(columns, count, first_opener, opener, separators, closer) -> bytes\n"
    "--\n\n"
    "`count` rows: opener, then each column's token (after separators[c] for c > 0),\n"
    "then closer; the first row opens with first_opener. columns: (kind, data, index)\n"
    "tuples (see the C source's header).";

static PyObject *join_rows(PyObject *self, PyObject *args) {
    PyObject *columns_in, *separators;
    Py_ssize_t count;
    const char *first_opener, *opener, *closer;
    Py_ssize_t first_len, opener_len, closer_len;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!ny#y#O!y#", &PyList_Type, &columns_in, &count, &first_opener,
                          &first_len, &opener, &opener_len, &PyList_Type, &separators, &closer,
                          &closer_len))
        return NULL;
    Py_ssize_t ncols = PyList_GET_SIZE(columns_in);
    if (PyList_GET_SIZE(separators) != ncols || count < 0) {
        PyErr_SetString(PyExc_ValueError, "join_rows: one separator per column");
        return NULL;
    }
    Column *columns = PyMem_Calloc((size_t)(ncols ? ncols : 1), sizeof(Column));
    if (!columns) return PyErr_NoMemory();
    Py_ssize_t estimate = 0;
    for (Py_ssize_t c = 0; c < ncols; c++) {
        PyObject *spec = PyList_GET_ITEM(columns_in, c);
        int kind;
        PyObject *data, *index;
        if (!PyArg_ParseTuple(spec, "iOO", &kind, &data, &index)) goto fail;
        Column *col = &columns[c];
        col->kind = kind;
        if (kind == TOKENS || kind == FLOATS || kind == CSV_FLOATS) {
            if (PyObject_GetBuffer(data, &col->view, PyBUF_SIMPLE)) goto fail;
            col->data = col->view.buf;
            col->end = col->data + col->view.len;
            if (kind == CSV_FLOATS) {
                if (PyObject_GetBuffer(index, &col->values_view, PyBUF_SIMPLE)) goto fail;
                if (col->values_view.len != count * (Py_ssize_t)sizeof(double)) {
                    PyErr_SetString(PyExc_ValueError, "join_rows: one float per row");
                    goto fail;
                }
                col->values = col->values_view.buf;
            }
        } else if (kind == TEXTS) {
            if (!PyTuple_Check(data)) {
                PyErr_SetString(PyExc_TypeError, "join_rows: texts must be a tuple of bytes");
                goto fail;
            }
            for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(data); t++) {
                if (!PyBytes_Check(PyTuple_GET_ITEM(data, t))) {
                    PyErr_SetString(PyExc_TypeError, "join_rows: texts must be bytes");
                    goto fail;
                }
            }
            col->texts = data;
            col->text_count = PyTuple_GET_SIZE(data);
            size_t slots = (size_t)(col->text_count ? col->text_count : 1);
            col->text_data = PyMem_Calloc(slots, sizeof(const char *));
            col->text_len = PyMem_Calloc(slots, sizeof(Py_ssize_t));
            if (!col->text_data || !col->text_len) {
                PyErr_NoMemory();
                goto fail;
            }
            Py_ssize_t longest = 0;
            for (Py_ssize_t t = 0; t < col->text_count; t++) {
                col->text_data[t] = PyBytes_AS_STRING(PyTuple_GET_ITEM(data, t));
                col->text_len[t] = PyBytes_GET_SIZE(PyTuple_GET_ITEM(data, t));
                if (col->text_len[t] > longest) longest = col->text_len[t];
            }
            estimate += longest * count;
            if (PyObject_GetBuffer(index, &col->view, PyBUF_SIMPLE)) goto fail;
            if (col->view.len != count * (Py_ssize_t)sizeof(long long)) {
                PyErr_SetString(PyExc_ValueError, "join_rows: one text index per row");
                goto fail;
            }
            col->index = col->view.buf;
        } else {
            PyErr_SetString(PyExc_ValueError, "join_rows: unknown column kind");
            goto fail;
        }
        if (!PyBytes_Check(PyList_GET_ITEM(separators, c))) {
            PyErr_SetString(PyExc_TypeError, "join_rows: separators must be bytes");
            goto fail;
        }
        col->separator = PyBytes_AS_STRING(PyList_GET_ITEM(separators, c));
        col->separator_len = (size_t)PyBytes_GET_SIZE(PyList_GET_ITEM(separators, c));
        estimate += col->end - col->data + (Py_ssize_t)col->separator_len * count;
    }
    /* The rows are written without the GIL (a sweep's export joins one chunk while the
     * next chunk's columns are encoded): from here on only raw memory is touched; the
     * arguments, and so every buffer read, live until the call returns. The output is
     * sized once from the tokens' lengths, with room for every float to grow by the few
     * bytes repr's layout adds, so it is rarely reallocated. */
    estimate += count * (opener_len + closer_len + 4 * ncols) + first_len;
    Out o = {PyMem_RawMalloc((size_t)estimate + 1), 0, (size_t)estimate + 1};
    if (!o.buf) {
        release(columns, ncols);
        return PyErr_NoMemory();
    }
    int err = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < count && !err; r++) {
        err = r ? put(&o, opener, (size_t)opener_len) : put(&o, first_opener, (size_t)first_len);
        for (Py_ssize_t c = 0; c < ncols && !err; c++) {
            Column *col = &columns[c];
            if (c) {
                err = put(&o, col->separator, col->separator_len);
                if (err) break;
            }
            if (col->kind == TEXTS) {
                long long t = col->index[r];
                if (t < 0 || t >= col->text_count) {
                    err = 2;
                    break;
                }
                err = put(&o, col->text_data[t], (size_t)col->text_len[t]);
                continue;
            }
            size_t n;
            const char *token = next_token(col, &n);
            if (!token) {
                err = 3;
                break;
            }
            err = col->kind == FLOATS       ? put_float(&o, token, n)
                  : col->kind == CSV_FLOATS ? put_csv_float(&o, token, n, col->values[r])
                                            : put(&o, token, n);
            if (err == 1) err = 4;
        }
        if (!err) err = put(&o, closer, (size_t)closer_len);
    }
    Py_END_ALLOW_THREADS
    release(columns, ncols);
    if (err) {
        PyMem_RawFree(o.buf);
        if (err == -1) return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, err == 2   ? "join_rows: text index out of range"
                                          : err == 3 ? "join_rows: a column has too few tokens"
                                                     : "join_rows: not a float token");
        return NULL;
    }
    PyObject *result = PyBytes_FromStringAndSize(o.buf, (Py_ssize_t)o.len);
    PyMem_RawFree(o.buf);
    return result;
fail:
    release(columns, ncols);
    return NULL;
}

static PyMethodDef methods[] = {
    {"join_rows", join_rows, METH_VARARGS, doc_join_rows},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rows",
    "Compiled part of planner.report.sweep_export (see the C source's header).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rows(void) { return PyModule_Create(&module); }
