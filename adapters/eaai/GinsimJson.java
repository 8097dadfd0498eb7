package ginrummy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON that ginsim's agent protocol needs (docs/agents.md), without a library:
 * {@link #parse} reads one message into Map / List / String / Long / Boolean / null, and
 * {@link #write} writes such values back as one line.
 */
public final class GinsimJson {
    private final String text;
    private int at;

    private GinsimJson(String text) {
        this.text = text;
    }

    /** One JSON value from a line; IllegalArgumentException says where it is malformed. */
    public static Object parse(String line) {
        GinsimJson reader = new GinsimJson(line);
        Object value = reader.value();
        reader.space();
        if (reader.at != line.length()) {
            throw reader.bad("text after the value");
        }
        return value;
    }

    /** A JSON object (a map of message fields) from a line. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String line) {
        Object value = parse(line);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("expected a JSON object, got: " + line);
        }
        return (Map<String, Object>) value;
    }

    /** A value as one line of JSON text (maps, lists, strings, numbers, booleans, null). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            out.append('"');
            for (char c : ((String) value).toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            out.append('"');
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(item, out);
            }
            out.append(']');
        } else if (value instanceof int[]) {
            List<Object> items = new ArrayList<>();
            for (int v : (int[]) value) {
                items.add(v);
            }
            write(items, out);
        } else {
            out.append(value);
        }
    }

    /** A map with the given keys and values in order: msg("type", "event", "seat", 1). */
    public static Map<String, Object> msg(Object... pairs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            out.put((String) pairs[i], pairs[i + 1]);
        }
        return out;
    }

    private IllegalArgumentException bad(String why) {
        return new IllegalArgumentException("bad JSON (" + why + " at character " + at + "): "
                + text);
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private Object value() {
        space();
        if (at >= text.length()) {
            throw bad("unexpected end");
        }
        char c = text.charAt(at);
        if (c == '{') {
            return object();
        }
        if (c == '[') {
            return array();
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at)) {
                at += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word.equals("true"));
            }
        }
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        if (start == at) {
            throw bad("unexpected character '" + c + "'");
        }
        String number = text.substring(start, at);
        try {
            return number.matches("-?\\d+") ? (Object) Long.valueOf(number)
                                             : (Object) Double.valueOf(number);
        } catch (NumberFormatException e) {
            throw bad("bad number " + number);
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> out = new LinkedHashMap<>();
        at++;
        space();
        if (at < text.length() && text.charAt(at) == '}') {
            at++;
            return out;
        }
        while (true) {
            space();
            if (at >= text.length() || text.charAt(at) != '"') {
                throw bad("expected a key");
            }
            String key = string();
            space();
            expect(':');
            out.put(key, value());
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect('}');
            return out;
        }
    }

    private List<Object> array() {
        List<Object> out = new ArrayList<>();
        at++;
        space();
        if (at < text.length() && text.charAt(at) == ']') {
            at++;
            return out;
        }
        while (true) {
            out.add(value());
            space();
            if (at < text.length() && text.charAt(at) == ',') {
                at++;
                continue;
            }
            expect(']');
            return out;
        }
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                break;
            }
            char e = text.charAt(at++);
            switch (e) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u':
                    if (at + 4 > text.length()) {
                        throw bad("short \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                    break;
                default: out.append(e);
            }
        }
        throw bad("unterminated string");
    }

    private void expect(char c) {
        if (at >= text.length() || text.charAt(at) != c) {
            throw bad("expected '" + c + "'");
        }
        at++;
    }
}
