package org.smartssd.examples.wc98;

/** {@link UrlNaming#synthetic()}. */
final class SyntheticUrls implements UrlNaming {
  static final SyntheticUrls INSTANCE = new SyntheticUrls();

  private SyntheticUrls() {}

  @Override
  public String url(long objectId, FileType type) {
    StringBuilder sb = new StringBuilder(32);
    append(sb, objectId, type);
    return sb.toString();
  }

  /** Appends the URL without building a string, for the text writer. */
  static void append(StringBuilder sb, long id, FileType type) {
    switch (type) {
      case HTML:
        sb.append("/english/obj").append(id).append(id % 100 < 30 ? ".html" : ".htm");
        break;
      case IMAGE:
        sb.append("/images/obj").append(id).append(id % 100 < 73 ? ".gif" : ".jpg");
        break;
      case AUDIO:
        sb.append("/audio/obj").append(id).append(".ram");
        break;
      case VIDEO:
        sb.append("/video/obj").append(id).append(".mpg");
        break;
      case JAVA:
        sb.append("/java/obj").append(id).append(".class");
        break;
      case FORMATTED:
        sb.append("/docs/obj").append(id).append(".pdf");
        break;
      case DYNAMIC:
        sb.append("/cgi-bin/obj").append(id).append("?q");
        break;
      case TEXT:
        sb.append("/text/obj").append(id).append(".txt");
        break;
      case COMPRESSED:
        sb.append("/files/obj").append(id).append(".zip");
        break;
      case PROGRAMS:
        sb.append("/files/obj").append(id).append(".exe");
        break;
      case DIRECTORY:
        sb.append("/obj").append(id).append('/');
        break;
      case ICL:
        sb.append("/misc/obj").append(id).append(".icl");
        break;
      case OTHER:
      default:
        sb.append("/misc/obj").append(id).append(".dat");
        break;
    }
  }
}
