package io.kuberaysim.security;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * A throw-away PKI for TLS tests: a CA, a server certificate it signs for 127.0.0.1 and localhost, and an unrelated
 * CA, written as PEM files.
 *
 * @param serverChain the server certificate followed by its CA (what {@code server.ssl.certificate} points at)
 * @param serverKey   the server's PKCS#8 private key
 * @param ca          the CA that signed the server certificate
 * @param wrongCa     a CA that signed nothing here
 */
record TestCertificates(Path serverChain, Path serverKey, Path ca, Path wrongCa, X509Certificate caCertificate) {

    static TestCertificates create(Path dir) {
        try {
            KeyPair caKeys = keys();
            X509Certificate ca = authority("CN=kuberay-sim test CA", caKeys);
            X509Certificate wrong = authority("CN=some other CA", keys());
            KeyPair serverKeys = keys();
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(new X500Name(ca.getSubjectX500Principal()
                    .getName()), BigInteger.valueOf(2), Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(2))), new X500Name("CN=127.0.0.1"), serverKeys.getPublic());
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[]{
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.dNSName, "localhost")}));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            X509Certificate server = new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKeys.getPrivate())));
            TestCertificates certs = new TestCertificates(dir.resolve("server.crt"), dir.resolve("server.key"),
                    dir.resolve("ca.crt"), dir.resolve("wrong-ca.crt"), ca);
            Files.writeString(certs.serverChain(), pem("CERTIFICATE", server.getEncoded())
                    + pem("CERTIFICATE", ca.getEncoded()));
            Files.writeString(certs.serverKey(), pem("PRIVATE KEY", serverKeys.getPrivate().getEncoded()));
            Files.writeString(certs.ca(), pem("CERTIFICATE", ca.getEncoded()));
            Files.writeString(certs.wrongCa(), pem("CERTIFICATE", wrong.getEncoded()));
            return certs;
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the test certificates", e);
        }
    }

    private static KeyPair keys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static X509Certificate authority(String name, KeyPair keys) throws Exception {
        Instant now = Instant.now();
        X500Name subject = new X500Name(name);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, BigInteger.ONE,
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
                keys.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
