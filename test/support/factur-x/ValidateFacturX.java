import org.mustangproject.validator.ZUGFeRDValidator;

/**
 * Mustang's validator on several files in one JVM (its jar has no command line of its own; starting
 * a JVM and veraPDF costs more than validating a file). For each file: a line naming it and its status,
 * then the XML report. A file is valid when no part of its report is invalid: Mustang's own verdict
 * (wasCompletelyValid) and its report's overall summary can say valid for a PDF that veraPDF found
 * not PDF/A compliant. Exit status 0 only when every file is valid.
 */
public class ValidateFacturX {
  public static void main(String[] files) throws Exception {
    boolean allValid = true;
    for (String file : files) {
      ZUGFeRDValidator validator = new ZUGFeRDValidator();
      String report = validator.validate(file);
      boolean valid = validator.wasCompletelyValid() && !report.contains("status=\"invalid\"");
      allValid &= valid;
      System.out.println("=== " + file + " " + (valid ? "valid" : "invalid"));
      System.out.println(report);
    }
    System.exit(allValid ? 0 : 1);
  }
}
