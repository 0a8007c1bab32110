"""The Python factur-x library reading Factur-X PDFs back: for each file, the XML it finds attached,
its flavour and level as the library detects them, and the check of that XML against the library's
XSD. One JSON line a file; exit status 0 only when every file carries a valid Factur-X XML."""

import json
import sys

import facturx
from lxml import etree

all_valid = True
for path in sys.argv[1:]:
    result = {"file": path}
    try:
        with open(path, "rb") as pdf:
            name, xml = facturx.get_facturx_xml_from_pdf(pdf.read(), check_xsd=False)
        if not xml:
            raise ValueError("no Factur-X XML attached")
        root = etree.fromstring(xml)
        result["attachment"] = name
        result["flavor"] = facturx.get_flavor(root)
        result["level"] = facturx.get_level(root, result["flavor"])
        facturx.xml_check_xsd(root, flavor=result["flavor"], level=result["level"])
        result["xsd"] = "valid"
    except Exception as error:  # the library raises several kinds; each is the file's failure
        result["error"] = f"{type(error).__name__}: {error}"
        all_valid = False
    print(json.dumps(result), flush=True)
sys.exit(0 if all_valid else 1)
