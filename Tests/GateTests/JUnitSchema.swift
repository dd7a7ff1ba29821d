/// The common JUnit XML schema that CI test reporters read: the structure of Jenkins'
/// `junit-4.xsd`, with the `failures` and `errors` counts on every `<testsuite>` required, as
/// Ant's JUnit schema has them. Written to a file at run time for `xmllint --schema`.
let junitSchema = """
    <?xml version="1.0" encoding="UTF-8"?>
    <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
      <xs:complexType name="outcome" mixed="true">
        <xs:attribute name="type" type="xs:string"/>
        <xs:attribute name="message" type="xs:string"/>
      </xs:complexType>
      <xs:element name="failure" type="outcome"/>
      <xs:element name="error" type="outcome"/>
      <xs:element name="skipped" type="xs:string"/>
      <xs:element name="system-out" type="xs:string"/>
      <xs:element name="system-err" type="xs:string"/>
      <xs:element name="property">
        <xs:complexType>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="value" type="xs:string" use="required"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="properties">
        <xs:complexType>
          <xs:sequence><xs:element ref="property" maxOccurs="unbounded"/></xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="testcase">
        <xs:complexType>
          <xs:sequence>
            <xs:element ref="skipped" minOccurs="0"/>
            <xs:element ref="error" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="failure" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-out" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-err" minOccurs="0" maxOccurs="unbounded"/>
          </xs:sequence>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="classname" type="xs:string"/>
          <xs:attribute name="assertions" type="xs:string"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="status" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="testsuite">
        <xs:complexType>
          <xs:sequence>
            <xs:element ref="properties" minOccurs="0"/>
            <xs:element ref="testcase" minOccurs="0" maxOccurs="unbounded"/>
            <xs:element ref="system-out" minOccurs="0"/>
            <xs:element ref="system-err" minOccurs="0"/>
          </xs:sequence>
          <xs:attribute name="name" type="xs:string" use="required"/>
          <xs:attribute name="tests" type="xs:nonNegativeInteger" use="required"/>
          <xs:attribute name="failures" type="xs:nonNegativeInteger" use="required"/>
          <xs:attribute name="errors" type="xs:nonNegativeInteger" use="required"/>
          <xs:attribute name="skipped" type="xs:nonNegativeInteger"/>
          <xs:attribute name="disabled" type="xs:nonNegativeInteger"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="timestamp" type="xs:string"/>
          <xs:attribute name="hostname" type="xs:string"/>
          <xs:attribute name="id" type="xs:string"/>
          <xs:attribute name="package" type="xs:string"/>
        </xs:complexType>
      </xs:element>
      <xs:element name="testsuites">
        <xs:complexType>
          <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
          <xs:attribute name="name" type="xs:string"/>
          <xs:attribute name="time" type="xs:string"/>
          <xs:attribute name="tests" type="xs:nonNegativeInteger"/>
          <xs:attribute name="failures" type="xs:nonNegativeInteger"/>
          <xs:attribute name="errors" type="xs:nonNegativeInteger"/>
          <xs:attribute name="disabled" type="xs:nonNegativeInteger"/>
        </xs:complexType>
      </xs:element>
    </xs:schema>

    """
