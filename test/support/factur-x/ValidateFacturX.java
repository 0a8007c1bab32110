import java.nio.file.Files;
import java.nio.file.Path;
import org.mustangproject.validator.ZUGFeRDValidator;

/**
 * Mustang's validator on several files in one JVM (its jar has no command line of its own; starting
 * a JVM and veraPDF costs more than validating a file). For each file: a line naming it, then the
 * XML report. Exit status 0 only when every file is valid.
 */
public class ValidateFacturX {
  public static void main(String[] files) throws Exception {
    boolean allValid = true;
    for (String file : files) {
      ZUGFeRDValidator validator = new ZUGFeRDValidator();
      String report = validator.validate(file);
      boolean valid = validator.wasCompletelyValid();
      allValid &= valid;
      System.out.println("=== " + file + " " + (valid ? "valid" : "invalid"));
      System.out.println(report);
    }
    System.exit(allValid ? 0 : 1);
  }
}
