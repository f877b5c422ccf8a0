package org.smartssd.examples.wc98;

/**
 * Gives the URL of an object for the text form. The real trace's table from object ID to URL
 * ({@code state/object_mappings.sort} in the trace's tools) is not available here, so the
 * {@link #synthetic() default} names are made up: deterministic, one per object, and consistent with
 * the object's type (the extension or shape the trace's tools classify as that type).
 */
@FunctionalInterface
public interface UrlNaming {
  String url(long objectId, FileType type);

  /**
   * Synthetic names: {@code /english/obj9.html} or {@code .htm} for HTML, {@code /images/obj123.gif} or
   * {@code .jpg} for IMAGE, {@code /obj5/} for DIRECTORY, {@code /cgi-bin/obj7?q} for DYNAMIC, and so on.
   * Between two extensions of one type, the object ID picks one in about the proportion of docs/WC98.md's
   * URL population (htm 22.3% to html 9.6%, gif 23.2% to jpg 8.4%).
   */
  static UrlNaming synthetic() {
    return SyntheticUrls.INSTANCE;
  }
}
