package tiersall

func Hot() {} // want "hot finding"

func Warm() {} // want "warm finding"

func Cold() {} // want "cold finding"
