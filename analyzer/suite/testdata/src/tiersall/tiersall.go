package tiersall

func Hot() {} // want "hot finding"

func Cold() {} // want "cold finding"

func Inherent() {} // want "inherent finding"
