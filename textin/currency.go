package textin

import "strings"

// activeCurrencies are the ISO 4217 codes of currencies in circulation (list
// of 2025, without funds, precious metals and testing codes), which a bank
// account can hold.
const activeCurrencies = `AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD
BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS
GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT
LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR
PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL
THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG`

// IsCurrency says whether code is the ISO 4217 code of a currency in
// circulation, in capitals as the standard writes it ("CZK").
func IsCurrency(code string) bool {
	if len(code) != 3 || strings.ContainsFunc(code, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return false
	}
	i := strings.Index(activeCurrencies, code)
	return i >= 0 && i%4 == 0
}
