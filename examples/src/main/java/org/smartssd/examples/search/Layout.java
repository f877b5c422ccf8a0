package org.smartssd.examples.search;

import java.util.Locale;

/** How the items are laid out in their object on the device. */
public enum Layout {
  /** In id order: what the generator made, every cluster spread over every page. */
  PLAIN("plain"),
  /**
   * Sorted by code (its words as unsigned numbers, bit 0 first; then by id), so that similar codes
   * share pages and the items of a code prefix (a bucket) are one range: the Cognitive SSD's
   * flash-aware layout keeps a vertex's neighbours on its page, this keeps near codes on theirs.
   */
  CLUSTERED("clustered");

  private final String optionName;

  Layout(String optionName) {
    this.optionName = optionName;
  }

  public String optionName() {
    return optionName;
  }

  public static Layout parse(String text) {
    for (Layout l : values()) {
      if (l.optionName.equals(text.toLowerCase(Locale.ROOT))) {
        return l;
      }
    }
    throw new IllegalArgumentException("unknown layout '" + text + "': plain or clustered");
  }

  @Override
  public String toString() {
    return optionName;
  }
}
