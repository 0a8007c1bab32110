/**
 * What makes a PDF/A-3 a Factur-X: the XML attached under its fixed name as the data the page is an
 * alternative rendering of, and the XMP properties that say so (the fx: schema of Factur-X 1.0), with
 * the description of that schema PDF/A requires for any property outside its own.
 */

export const facturXFileName = 'factur-x.xml';

const namespace = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const property = (name: string, description: string): string => `
            <rdf:li rdf:parseType="Resource">
              <pdfaProperty:name>${name}</pdfaProperty:name>
              <pdfaProperty:valueType>Text</pdfaProperty:valueType>
              <pdfaProperty:category>external</pdfaProperty:category>
              <pdfaProperty:description>${description}</pdfaProperty:description>
            </rdf:li>`;

/** The XMP descriptions a Factur-X EN 16931 PDF carries; a credit note is of document type INVOICE too. */
export const facturXMetadata = `
        <rdf:Description rdf:about="" xmlns:fx="${namespace}">
          <fx:DocumentType>INVOICE</fx:DocumentType>
          <fx:DocumentFileName>${facturXFileName}</fx:DocumentFileName>
          <fx:Version>1.0</fx:Version>
          <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
          <pdfaExtension:schemas>
            <rdf:Bag>
              <rdf:li rdf:parseType="Resource">
                <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
                <pdfaSchema:namespaceURI>${namespace}</pdfaSchema:namespaceURI>
                <pdfaSchema:prefix>fx</pdfaSchema:prefix>
                <pdfaSchema:property>
                  <rdf:Seq>${[
                    property('DocumentFileName', 'The name of the embedded XML document'),
                    property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'),
                    property('Version', 'The actual version of the standard applying to the embedded XML document'),
                    property('ConformanceLevel', 'The conformance level of the embedded XML document'),
                  ].join('')}
                  </rdf:Seq>
                </pdfaSchema:property>
              </rdf:li>
            </rdf:Bag>
          </pdfaExtension:schemas>
        </rdf:Description>`;
