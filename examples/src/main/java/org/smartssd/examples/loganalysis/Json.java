package org.smartssd.examples.loganalysis;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A small JSON writer for reports: maps (in their order), lists, strings, numbers, booleans and null. */
public final class Json {
  private Json() {}

  /** The value, indented, and a newline. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.append('\n').toString();
  }

  /** The value on one line (for JSON Lines), without the newline. */
  public static String writeLine(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, COMPACT);
    return sb.toString();
  }

  /** The indent that means: no newlines, no padding. */
  private static final int COMPACT = Integer.MIN_VALUE / 2;

  private static void write(StringBuilder sb, Object value, int indent) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      string(sb, s);
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      sb.append(value);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      sb.append(Double.isFinite(d) ? Double.toString(d) : "null"); // e.g. 1.0E-7: valid JSON
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append(indent < 0 ? "{" : "{\n");
      Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = it.next();
        pad(sb, indent + 1);
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue(), indent + 1);
        sb.append(it.hasNext() ? (indent < 0 ? "," : ",\n") : (indent < 0 ? "" : "\n"));
      }
      pad(sb, indent);
      sb.append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append(indent < 0 ? "[" : "[\n");
      for (int i = 0; i < list.size(); i++) {
        pad(sb, indent + 1);
        write(sb, list.get(i), indent + 1);
        sb.append(i + 1 < list.size() ? (indent < 0 ? "," : ",\n") : (indent < 0 ? "" : "\n"));
      }
      pad(sb, indent);
      sb.append(']');
    } else {
      string(sb, value.toString());
    }
  }

  private static void pad(StringBuilder sb, int indent) {
    if (indent > 0) {
      sb.append("  ".repeat(indent));
    }
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
